/** User management: getUser (the caller's own record; an admin learns only that others exist). */
import { notFound, notYourUser } from '../errors.js';
import type { Payload } from '../response.js';
import { MUSIC_FOLDERS } from './browsing.js';
import type { Call } from './call.js';

export function userEndpoints() {
  return {
    getUser: (c: Call): Payload => {
      const name = c.params.required('username').toLowerCase();
      if (name !== c.user.handle && c.user.role !== 'admin') throw notYourUser();
      if (name !== c.user.handle) throw notFound('User');
      return {
        user: {
          username: c.user.handle,
          scrobblingEnabled: true,
          adminRole: c.user.role === 'admin',
          settingsRole: false,
          downloadRole: true,
          uploadRole: false,
          playlistRole: true,
          coverArtRole: false,
          commentRole: false,
          podcastRole: false,
          streamRole: true,
          jukeboxRole: false,
          shareRole: false,
          videoConversionRole: false,
          folder: MUSIC_FOLDERS.map((f) => f.id),
        },
      };
    },
  };
}
