// hls.js ships one declaration file for its full and light builds; the light one has the same API.
declare module 'hls.js/light' {
  export { default } from 'hls.js';
}
