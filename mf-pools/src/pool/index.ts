export { PoolPage } from './PoolPage';
