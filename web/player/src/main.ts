/**
 * Client-side routes of the player: / (new uploads and trending), /trending, /search?q=,
 * /artists/<id>, /albums/<id>, /signup, /login, /upload, /me/tracks, /tracks/<id>, /users/<handle>,
 * /playlists, /playlists/<id>, /purchases/<id>, /me/purchases, /me/sales, /forgot-password,
 * /reset-password, /verify, /me/sessions (account-pages.ts). Links inside the app change the page
 * without a reload (History API), so the player bar's audio plays on across every page.
 */
import './style.css';
import { h, clear } from '../../shared/dom';
import { ProblemError } from '../../shared/http';
import { api, askServer, onSessionEnded, problemText, saveSession, session, sessionEndedText } from './api';
import { renderForgotPassword, renderResetPassword, renderSessions, renderVerify } from './account-pages';
import { renderAuth } from './auth-pages';
import { renderAlbum, renderArtist, renderHome, renderSearch } from './browse-pages';
import { renderProfile, renderTrending } from './list-pages';
import { renderMyTracks } from './my-tracks';
import { renderPurchase, renderPurchases } from './payments';
import { renderSales } from './sales-page';
import { leaveTrack, renderTrack } from './track-page';
import { renderUpload } from './upload-page';
import { leavePage, startLive, startNotifications, stopLive } from './live';
import { startMediaKeys } from './media-keys';
import { mountPlayerBar } from './player-bar';
import { renderPlaylist, renderPlaylists } from './playlist-pages';
import { restoreQueue } from './queue';
import { sharedQueueOnRoute, startQueueSync } from './queue-sync';

const app = document.getElementById('app')!;
const hintedHandle = session()?.handle;
const nav = document.getElementById('nav')!;

function go(path: string): void {
  history.pushState(null, '', path);
  void route();
}

function logOut(): void {
  // The session is gone for this page whatever the answer (an expired cookie is a 401).
  void api('/auth/logout', { method: 'POST' })
    .catch(() => undefined)
    .finally(() => {
      stopLive();
      saveSession(null);
      go('/');
    });
}

/** The menu: Search and the main entries in one row; on a phone the rest folds under "Menu". */
function renderNav(): void {
  const s = session();
  const more = h(
    'div',
    { class: 'nav-more', id: 'nav-more' },
    h('a', { href: '/trending' }, 'Trending'),
    s ? h('a', { href: '/playlists' }, 'Playlists') : null,
    s ? h('a', { href: '/upload' }, 'Upload') : null,
    s ? h('a', { href: '/me/tracks' }, 'My tracks') : null,
    s ? h('a', { href: '/me/sales' }, 'Sales') : null,
    s ? h('a', { href: '/me/sessions' }, 'Account') : null,
    s ? h('a', { href: `/users/${s.handle}` }, s.handle) : h('a', { href: '/login' }, 'Log in'),
    s
      ? h('button', { type: 'button', class: 'link', onclick: logOut }, 'Log out')
      : h('a', { href: '/signup' }, 'Sign up'),
  );
  const toggle = h(
    'button',
    { type: 'button', class: 'link nav-toggle', 'aria-expanded': 'false', 'aria-controls': 'nav-more' },
    'Menu',
  );
  toggle.addEventListener('click', () => {
    const open = more.classList.toggle('open');
    toggle.setAttribute('aria-expanded', String(open));
  });
  clear(nav, h('a', { href: '/search' }, 'Search'), toggle, more);
  for (const a of nav.querySelectorAll('a'))
    if (a.getAttribute('href') === location.pathname) a.setAttribute('aria-current', 'page');
}

async function route(): Promise<void> {
  if (session()) document.querySelector('.session-ended')?.remove();
  leaveTrack();
  leavePage();
  // Live updates while logged in (a login since the last route starts them).
  startLive();
  sharedQueueOnRoute();
  renderNav();
  const path = location.pathname;
  const match = (re: RegExp): string | undefined => {
    const m = re.exec(path);
    return m ? decodeURIComponent(m[1]!) : undefined;
  };
  const track = match(/^\/tracks\/([^/]+)$/);
  const user = match(/^\/users\/([^/]+)$/);
  const artist = match(/^\/artists\/([^/]+)$/);
  const album = match(/^\/albums\/([^/]+)$/);
  const purchase = match(/^\/purchases\/([^/]+)$/);
  const playlist = match(/^\/playlists\/([^/]+)$/);
  try {
    if (track) await renderTrack(app, track, go);
    else if (user) await renderProfile(app, user);
    else if (artist) await renderArtist(app, artist);
    else if (album) await renderAlbum(app, album);
    else if (playlist) await renderPlaylist(app, playlist, go);
    else if (path === '/playlists') renderPlaylists(app, go);
    else if (purchase)
      await renderPurchase(app, purchase, new URLSearchParams(location.search).get('outcome'));
    else if (path === '/me/purchases') renderPurchases(app);
    else if (path === '/me/sales') renderSales(app);
    else if (path === '/search') renderSearch(app, new URLSearchParams(location.search).get('q') ?? '');
    else if (path === '/signup' || path === '/login')
      renderAuth(app, path === '/signup' ? 'signup' : 'login', go);
    else if (path === '/upload') renderUpload(app, go);
    else if (path === '/me/tracks') renderMyTracks(app);
    else if (path === '/me/sessions') await renderSessions(app, go);
    else if (path === '/forgot-password') renderForgotPassword(app);
    else if (path === '/reset-password') renderResetPassword(app);
    else if (path === '/verify') await renderVerify(app);
    else if (path === '/trending') await renderTrending(app);
    else if (path === '/') renderHome(app);
    else {
      document.title = 'Not found · Music';
      clear(
        app,
        h('h1', {}, 'No such page'),
        h(
          'p',
          {},
          `Nothing lives at ${path}. `,
          h('a', { href: '/' }, 'Go to the home page'),
          ' or ',
          h('a', { href: '/search' }, 'search'),
          '.',
        ),
      );
    }
  } catch (err) {
    if (err instanceof ProblemError && err.problem.status === 401) {
      // Never the API's sentence for developers (an Authorization header): the way in.
      document.title = 'Log in · Music';
      const onTop = document.querySelector('.session-ended') !== null;
      clear(
        app,
        h('h1', {}, 'Log in to see this page'),
        onTop ? null : h('p', { role: 'alert' }, sessionEndedText(err) ?? 'This page is for your account.'),
        h('p', {}, h('a', { href: '/login' }, 'Log in'), ' or ', h('a', { href: '/signup' }, 'sign up'), '.'),
      );
    } else
      clear(
        app,
        h('h1', {}, 'Something went wrong'),
        h('p', { class: 'error', role: 'alert' }, problemText(err)),
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
document.addEventListener('submit', (event) => {
  const form = event.target as HTMLFormElement;
  if (form.getAttribute('role') !== 'search') return;
  event.preventDefault();
  const q = new FormData(form).get('q');
  go(`/search?q=${encodeURIComponent(typeof q === 'string' ? q.trim() : '')}`);
});
window.addEventListener('popstate', () => void route());
startNotifications();
mountPlayerBar();
startMediaKeys();
restoreQueue();
onSessionEnded((message) => {
  stopLive();
  renderNav();
  // Said once, above the page, in the server's words, with the way back in.
  document.querySelector('.session-ended')?.remove();
  const note = h(
    'p',
    { class: 'notice session-ended', role: 'alert' },
    `${message} `,
    h('a', { href: '/login' }, 'Log in'),
  );
  app.before(note);
  window.addEventListener('popstate', () => note.remove(), { once: true });
  // The page again as a logged-out visitor sees it ("Log in to see your tracks"), not its failed parts.
  void route();
});
// The page is drawn from the hint at once, then again with the server's answer.
void route();
void askServer().then(() => {
  // The shared queue once the server said who is signed in (queue-sync.ts).
  startQueueSync();
  return session()?.handle === hintedHandle ? undefined : route();
});
