export { setPrices, sharedPriceSource, tablePriceSource, type PriceSource } from './prices';
