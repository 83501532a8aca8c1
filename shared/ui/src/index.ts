export { createRemote, type RemoteDefinition } from './remote/createRemote';
export { useRemote, RemoteContext } from './remote/RemoteContext';
export { useObservable } from './useObservable';
export { Page } from './components/Page';
export { createBus, disconnectedWallet, routeFromLocation, type ShellBus, type BusState } from './bus';
export { useNotify } from './useNotify';
export { Chart, type ChartProps, type ChartSeries } from './chart/Chart';
export { useServerData, useCabinetRevision, LIVE_POLL_MS, type Loadable } from './live';
export { Panel, type PanelTexts } from './components/Panel';
