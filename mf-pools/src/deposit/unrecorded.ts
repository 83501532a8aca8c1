// A deposit whose transaction was sent but which the server has not recorded yet (the page was
// closed, the API did not answer). Kept in the browser so the next visit records it: without the
// record the server never credits money that left the wallet. The server deduplicates by hash.

export interface UnrecordedDeposit {
  pool: string;
  hash: string;
  currency: string;
  /** Base units, decimal string. */
  units: string;
}

const KEY = 'pools.unrecordedDeposits';

export function loadUnrecorded(storage: Storage | undefined = globalThis.localStorage): UnrecordedDeposit[] {
  try {
    const list: unknown = JSON.parse(storage?.getItem(KEY) ?? '[]');
    return Array.isArray(list)
      ? list.filter((d): d is UnrecordedDeposit => typeof d?.pool === 'string' && /^0x[0-9a-f]{64}$/i.test(d?.hash) && typeof d?.currency === 'string' && /^\d+$/.test(d?.units))
      : [];
  } catch {
    return [];
  }
}

function save(list: UnrecordedDeposit[], storage: Storage | undefined) {
  try {
    if (list.length) storage?.setItem(KEY, JSON.stringify(list));
    else storage?.removeItem(KEY);
  } catch {
    // Storage full or refused (private mode): the record is then only tried from this page.
  }
}

export function rememberUnrecorded(deposit: UnrecordedDeposit, storage: Storage | undefined = globalThis.localStorage) {
  save([...loadUnrecorded(storage).filter((d) => d.hash !== deposit.hash), deposit], storage);
}

export function forgetUnrecorded(hash: string, storage: Storage | undefined = globalThis.localStorage) {
  save(loadUnrecorded(storage).filter((d) => d.hash !== hash), storage);
}
