import { SUPPORTED_CHAIN_ID } from '@app/contracts';
import { explorerTxUrl, shortAddress } from '@app/web3';

/** A transaction's explorer link (short hash, full hash on hover), or a dash while there is none. */
export function TxLink({ hash, testId }: { hash: string | null; testId?: string }) {
  if (!hash) return <>—</>;
  return (
    <a href={explorerTxUrl(SUPPORTED_CHAIN_ID, hash)} target="_blank" rel="noreferrer noopener" title={hash} data-testid={testId}>
      {shortAddress(hash)}
    </a>
  );
}
