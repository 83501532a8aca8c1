export { createRemote, type RemoteDefinition } from './remote/createRemote';
export { useRemote, RemoteContext } from './remote/RemoteContext';
export { useObservable } from './useObservable';
export { Page } from './components/Page';
export { createBus, disconnectedWallet, routeFromLocation, type ShellBus, type BusState } from './bus';
export { useNotify } from './useNotify';
