/** Client-side routes of the workbench: /, /tools/<id>, /report-card, /leaderboard. */
import './style.css';
import { h, clear } from '../../shared/dom';
import { catalogAndExamples } from './api';
import { renderHome } from './home-page';
import { renderLeaderboard } from './leaderboard-page';
import { renderReportCard } from './report-card-page';
import { renderToolPage } from './tool-page';

const app = document.getElementById('app')!;
const nav = document.getElementById('nav')!;

async function route(): Promise<void> {
  const path = location.pathname;
  const { tools } = await catalogAndExamples();
  clear(
    nav,
    h('a', { href: '/', 'aria-current': path === '/' ? 'page' : null }, 'Tools'),
    h('a', { href: '/report-card', 'aria-current': path === '/report-card' ? 'page' : null }, 'Report card'),
    h('a', { href: '/leaderboard', 'aria-current': path === '/leaderboard' ? 'page' : null }, 'Open bench'),
  );
  const toolMatch = /^\/tools\/([a-z-]+)$/.exec(path);
  const tool = toolMatch ? tools.find((t) => t.id === toolMatch[1]) : undefined;
  if (tool) await renderToolPage(app, tool);
  else if (path === '/report-card') renderReportCard(app);
  else if (path === '/leaderboard') await renderLeaderboard(app);
  else renderHome(app, tools, path === '/' ? null : path);
  app.focus({ preventScroll: true });
}

// Same-origin links navigate without a reload.
document.addEventListener('click', (event) => {
  const link = (event.target as Element).closest('a');
  if (!link || link.target || link.hasAttribute('download') || event.metaKey || event.ctrlKey) return;
  const url = new URL(link.href, location.href);
  if (url.origin !== location.origin || url.pathname.startsWith('/api/')) return;
  event.preventDefault();
  history.pushState(null, '', url);
  void route();
});
window.addEventListener('popstate', () => void route());
void route();
