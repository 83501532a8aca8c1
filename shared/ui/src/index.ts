export { createRemote, type RemoteDefinition } from './remote/createRemote';
export { useRemote, RemoteContext } from './remote/RemoteContext';
export { useObservable } from './useObservable';
export { Page } from './components/Page';
export { createBus, disconnectedWallet, routeFromLocation, type ShellBus, type BusState } from './bus';
export { useNotify } from './useNotify';
// The chart is imported from '@app/ui/chart': its lazy loader would otherwise ride along in every remote.
export { useServerData, useCabinetRevision, LIVE_POLL_MS, type Loadable } from './live';
export { Panel, type PanelTexts } from './components/Panel';
export { TxLink } from './components/TxLink';
export { CoinMark, COINS, type Coin } from './components/CoinMark';
export { Field, FieldNotes, FormSummary, SelectField, describedInput, fieldClass, type FieldProps, type SelectFieldProps } from './components/Field';
export { TableScroll } from './components/TableScroll';
export { DataTable, type DataColumn, type DataRowAttrs, type DataTableProps } from './components/DataTable';
export { Amount, WithAmount, AMOUNT_SLOT } from './components/Amount';
