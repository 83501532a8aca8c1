// jsdom lacks what react-router reads at load time; import this before anything else in a test.
// Node's own are used; this package is typed for the browser, so `require` is declared here.
declare function require(id: 'node:util'): Pick<typeof globalThis, 'TextEncoder' | 'TextDecoder'>;
const util = require('node:util');

Object.assign(globalThis, { TextEncoder: util.TextEncoder, TextDecoder: util.TextDecoder });
