export { PoolsOverview } from './Overview';
export { PoolFigures } from './PoolHeader';
export { Assets, Strategy } from './Assets';
export { Graph } from './Graph';
export { Converter } from './Converter';
export { RoiCalculator } from './Roi';
export { Withdrawals } from './Withdrawals';
