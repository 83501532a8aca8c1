import { useTranslation } from '@app/singletons/react-i18n';
import { Amount } from '@app/ui';
import { isCurrency } from '@app/web3';
import { depositDecimals } from './amounts';

/**
 * A pool coin's amount in base units as the design system shows amounts: its mark, precision by
 * magnitude, the exact figure on demand. A currency the page does not know keeps its raw figure.
 */
export function CoinFigure({ units, currency, exact, testId }: { units: bigint | string; currency: string; exact?: boolean; testId?: string }) {
  const { i18n } = useTranslation();
  if (!isCurrency(currency)) return <span data-testid={testId}>{`${String(units)}\u00a0${currency}`}</span>;
  return <Amount units={units} decimals={depositDecimals(currency)} currency={currency} lang={i18n.language} exact={exact} testId={testId} />;
}
