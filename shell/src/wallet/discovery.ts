/** An EIP-1193 provider, as wallets inject it. */
export interface Eip1193Provider {
  request(args: { method: string; params?: unknown[] | object }): Promise<unknown>;
  on?(event: string, listener: (...args: unknown[]) => void): void;
  removeListener?(event: string, listener: (...args: unknown[]) => void): void;
}

interface ProviderDetail {
  info: { uuid: string; name: string; icon: string; rdns: string };
  provider: Eip1193Provider;
}

/**
 * EIP-6963: wallets announce themselves on request, so several can live side by side. The
 * announced ones win over the legacy window.ethereum, MetaMask first when present.
 */
export function startProviderDiscovery(win: Window = window) {
  const announced = new Map<string, ProviderDetail>();
  win.addEventListener('eip6963:announceProvider', (event) => {
    const detail = (event as CustomEvent<ProviderDetail>).detail;
    if (detail?.info?.uuid && typeof detail.provider?.request === 'function') announced.set(detail.info.uuid, detail);
  });
  win.dispatchEvent(new Event('eip6963:requestProvider'));
  return {
    pick(): Eip1193Provider | null {
      const all = [...announced.values()];
      const chosen = all.find((d) => d.info.rdns === 'io.metamask') ?? all[0];
      if (chosen) return chosen.provider;
      return ((win as Window & { ethereum?: Eip1193Provider }).ethereum ?? null) || null;
    },
  };
}

/** EIP-1193 code 4001: the person said no in the wallet. */
export function isUserRejection(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 4; depth++) {
    const { code, info, error: inner } = e as { code?: unknown; info?: { error?: unknown }; error?: unknown };
    if (code === 4001 || code === 'ACTION_REJECTED') return true;
    e = info?.error ?? inner;
  }
  return false;
}

/** Mobile browsers and Edge without a provider are sent to the wallet's own browser (spec §4). */
export function shouldPromptWalletBrowser(nav: Navigator = navigator): boolean {
  return /Android|iPhone|iPad|iPod|Mobi|Edg\//i.test(nav.userAgent);
}
