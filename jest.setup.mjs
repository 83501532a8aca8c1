// jsdom lacks TextEncoder and TextDecoder, which react-router reads when it loads; Node's serve.
import { TextDecoder, TextEncoder } from 'node:util';

if (typeof globalThis.TextEncoder === 'undefined') Object.assign(globalThis, { TextEncoder, TextDecoder });
