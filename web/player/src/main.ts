/** Client-side routes of the player: /, /trending, /signup, /login, /upload, /tracks/<id>, /users/<handle>. */
import './style.css';
import { h, clear } from '../../shared/dom';
import { api, saveSession, session } from './api';
import { renderAuth } from './auth-pages';
import { renderProfile, renderTrending } from './list-pages';
import { renderTrack } from './track-page';
import { renderUpload } from './upload-page';

const app = document.getElementById('app')!;
const nav = document.getElementById('nav')!;

function go(path: string): void {
  history.pushState(null, '', path);
  void route();
}

function renderNav(): void {
  const s = session();
  clear(
    nav,
    h('a', { href: '/trending' }, 'Trending'),
    s ? h('a', { href: '/upload' }, 'Upload') : null,
    s ? h('a', { href: `/users/${s.handle}` }, s.handle) : h('a', { href: '/login' }, 'Log in'),
    s
      ? h(
          'button',
          {
            type: 'button',
            class: 'link',
            onclick: () => {
              void api('/auth/logout', { method: 'POST' }).finally(() => {
                saveSession(null);
                go('/');
              });
            },
          },
          'Log out',
        )
      : h('a', { href: '/signup' }, 'Sign up'),
  );
}

async function route(): Promise<void> {
  renderNav();
  const path = location.pathname;
  const track = /^\/tracks\/([^/]+)$/.exec(path);
  const user = /^\/users\/([^/]+)$/.exec(path);
  try {
    if (track) await renderTrack(app, decodeURIComponent(track[1]!));
    else if (user) await renderProfile(app, decodeURIComponent(user[1]!));
    else if (path === '/signup' || path === '/login')
      renderAuth(app, path === '/signup' ? 'signup' : 'login', go);
    else if (path === '/upload') renderUpload(app, go);
    else await renderTrending(app);
  } catch (err) {
    clear(
      app,
      h('h1', {}, 'Something went wrong'),
      h('p', { class: 'error', role: 'alert' }, (err as Error).message),
    );
  }
  app.focus({ preventScroll: true });
}

document.addEventListener('click', (event) => {
  const link = (event.target as Element).closest('a');
  if (!link || link.target || link.hasAttribute('download') || event.metaKey || event.ctrlKey) return;
  const url = new URL(link.href, location.href);
  if (url.origin !== location.origin || /^\/(api|media|waveforms|images)\//.test(url.pathname)) return;
  event.preventDefault();
  go(url.pathname + url.search);
});
window.addEventListener('popstate', () => void route());
void route();
