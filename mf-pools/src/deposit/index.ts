// The deposit feature: the form, the flow from the button to credited, and the user's deposits.
export { DepositForm } from './DepositForm';
export { DepositHistory } from './DepositHistory';
export { DepositProgress } from './DepositProgress';
export { useDepositFlow } from './useDepositFlow';
export { depositDecimals } from './amounts';
export { CoinFigure } from './CoinFigure';
