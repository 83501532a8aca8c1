// Helpers for the remotes' component tests (jsdom; jest.setup.mjs supplies what jsdom lacks).
export { deferred, renderRemote, shellApiError, type RemoteSetup, type RenderedRemote } from './renderRemote';
