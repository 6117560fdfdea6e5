/**
 * The Subsonic route table: every endpoint this server answers, by area (one file each under
 * endpoints/, as the Subsonic API documentation groups them). A new endpoint is a handler in its
 * area's file and one line here; /rest/<name> and /rest/<name>.view reach it (routes/subsonic.ts).
 */
import { annotationEndpoints } from './endpoints/annotation.js';
import { bookmarkEndpoints } from './endpoints/bookmarks.js';
import { browsingEndpoints } from './endpoints/browsing.js';
import type { EndpointDeps, Handler } from './endpoints/call.js';
import { listEndpoints } from './endpoints/lists.js';
import { mediaRetrievalEndpoints } from './endpoints/media-retrieval.js';
import { playlistEndpoints } from './endpoints/playlists.js';
import { searchEndpoints } from './endpoints/searching.js';
import { systemEndpoints } from './endpoints/system.js';
import { userEndpoints } from './endpoints/users.js';

export class SubsonicEndpoints {
  readonly handlers: Record<string, Handler>;

  constructor(deps: EndpointDeps) {
    const system = systemEndpoints(deps);
    const browsing = browsingEndpoints(deps);
    const lists = listEndpoints(deps);
    const searching = searchEndpoints(deps);
    const playlists = playlistEndpoints(deps);
    const media = mediaRetrievalEndpoints(deps);
    const annotation = annotationEndpoints(deps);
    const users = userEndpoints();
    const bookmarks = bookmarkEndpoints(deps);
    this.handlers = {
      // System and library scanning
      ping: system.ping,
      getLicense: system.getLicense,
      getOpenSubsonicExtensions: system.getOpenSubsonicExtensions,
      tokenInfo: system.tokenInfo,
      getScanStatus: system.getScanStatus,
      startScan: system.startScan,
      // Browsing
      getMusicFolders: browsing.getMusicFolders,
      getIndexes: browsing.getIndexes,
      getMusicDirectory: browsing.getMusicDirectory,
      getGenres: browsing.getGenres,
      getArtists: browsing.getArtists,
      getArtist: browsing.getArtist,
      getAlbum: browsing.getAlbum,
      getSong: browsing.getSong,
      getArtistInfo2: browsing.getArtistInfo2,
      getAlbumInfo2: browsing.getAlbumInfo2,
      getTopSongs: browsing.getTopSongs,
      // Album and song lists
      getAlbumList: lists.getAlbumList,
      getAlbumList2: lists.getAlbumList2,
      getRandomSongs: lists.getRandomSongs,
      getSongsByGenre: lists.getSongsByGenre,
      getNowPlaying: lists.getNowPlaying,
      getStarred: lists.getStarred,
      getStarred2: lists.getStarred2,
      // Searching
      search2: searching.search2,
      search3: searching.search3,
      // Playlists
      getPlaylists: playlists.getPlaylists,
      getPlaylist: playlists.getPlaylist,
      createPlaylist: playlists.createPlaylist,
      updatePlaylist: playlists.updatePlaylist,
      deletePlaylist: playlists.deletePlaylist,
      // Media retrieval
      stream: media.stream,
      download: media.download,
      'hls.m3u8': media['hls.m3u8'],
      getCoverArt: media.getCoverArt,
      getLyricsBySongId: media.getLyricsBySongId,
      getAvatar: media.getAvatar,
      // Media annotation
      star: annotation.star,
      unstar: annotation.unstar,
      setRating: annotation.setRating,
      scrobble: annotation.scrobble,
      // User management
      getUser: users.getUser,
      // Bookmarks and the play queue
      getBookmarks: bookmarks.getBookmarks,
      createBookmark: bookmarks.createBookmark,
      deleteBookmark: bookmarks.deleteBookmark,
      getPlayQueue: bookmarks.getPlayQueue,
      getPlayQueueByIndex: bookmarks.getPlayQueueByIndex,
      savePlayQueue: bookmarks.savePlayQueue,
      savePlayQueueByIndex: bookmarks.savePlayQueueByIndex,
    };
  }
}
