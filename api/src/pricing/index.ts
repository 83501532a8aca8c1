export { setPrices, tablePriceSource, type PriceSource } from './prices';
