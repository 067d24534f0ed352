/**
 * The flags every benchmark launches Chromium with (the project's standard set): no sandbox or GPU in the
 * container, no QUIC (the delay proxy shapes TCP only), and none of Chromium's own background traffic on the
 * measured link. Scripts add what only they need.
 */
export const CHROMIUM_ARGS = Object.freeze([
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]);
