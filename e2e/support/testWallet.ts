import { JsonRpcProvider, Wallet, getBytes, isHexString, toUtf8String } from 'ethers';
import type { Page } from '@playwright/test';
import { ports } from '../stack.config';

export const rpcUrl = `http://127.0.0.1:${ports.chain}`;

type Rejectable = 'eth_requestAccounts' | 'personal_sign' | 'eth_sendTransaction' | 'wallet_switchEthereumChain' | 'eth_signTypedData_v4';

/**
 * A browser wallet for the tests: an EIP-1193 provider announced over EIP-6963 and set as
 * window.ethereum. It signs in this process with a local key (ethers) and forwards every other
 * call to the local chain. Tests can switch the reported network, change the account, and make
 * the next request of a kind be rejected with 4001, as a person clicking "Reject" would.
 */
export class TestWallet {
  readonly chain = new JsonRpcProvider(rpcUrl, 1, { cacheTimeout: -1, staticNetwork: true });
  private signer: Wallet;
  private chainId = 1;
  private rejectNext = new Set<Rejectable>();
  /** The account the person picks when the page asks for the account picker (wallet_requestPermissions). */
  private picked: string | null = null;
  /** Every request the page made, by method, for assertions. */
  readonly calls: string[] = [];

  constructor(
    privateKey: string,
    private page: Page,
  ) {
    this.signer = new Wallet(privateKey, this.chain);
  }

  static random(page: Page): TestWallet {
    return new TestWallet(Wallet.createRandom().privateKey, page);
  }

  get address(): string {
    return this.signer.address;
  }

  /** Installs the provider in the page; call before the first navigation. */
  async install(): Promise<void> {
    await this.page.exposeBinding('__testWalletRequest', (_source, method: string, params: unknown[]) => this.handle(method, params ?? []));
    await this.page.addInitScript(() => {
      type Listener = (...args: unknown[]) => void;
      const listeners = new Map<string, Set<Listener>>();
      const w = window as unknown as {
        __testWalletRequest(method: string, params: unknown[]): Promise<{ result?: unknown; error?: { code: number; message: string } }>;
        __testWalletEmit(event: string, payload: unknown): void;
        ethereum: unknown;
      };
      const provider = {
        isMetaMask: true,
        async request({ method, params }: { method: string; params?: unknown[] }) {
          const answer = await w.__testWalletRequest(method, params ?? []);
          if (answer.error) throw Object.assign(new Error(answer.error.message), { code: answer.error.code });
          return answer.result;
        },
        on(event: string, listener: Listener) {
          if (!listeners.has(event)) listeners.set(event, new Set());
          listeners.get(event)!.add(listener);
        },
        removeListener(event: string, listener: Listener) {
          listeners.get(event)?.delete(listener);
        },
      };
      w.__testWalletEmit = (event, payload) => listeners.get(event)?.forEach((l) => l(payload));
      w.ethereum = provider;
      const info = { uuid: '6f6c6f63-616c-4000-8000-746573747761', name: 'Test Wallet', icon: 'data:image/svg+xml,<svg xmlns="http://www.w3.org/2000/svg"/>', rdns: 'io.metamask' };
      const announce = () => window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail: Object.freeze({ info, provider }) }));
      window.addEventListener('eip6963:requestProvider', announce);
      announce();
    });
  }

  rejectNextRequest(method: Rejectable): void {
    this.rejectNext.add(method);
  }

  /** The wallet reports another network, as when the person switches it in the wallet. */
  async switchChain(chainId: number): Promise<void> {
    this.chainId = chainId;
    await this.emit('chainChanged', `0x${chainId.toString(16)}`);
  }

  /** The person picks another account in the wallet. */
  async changeAccount(privateKey: string | null): Promise<void> {
    if (privateKey) this.signer = new Wallet(privateKey, this.chain);
    await this.emit('accountsChanged', privateKey ? [this.signer.address.toLowerCase()] : []);
  }

  /** The next time the page opens the wallet's account picker, the person picks this account. */
  pickOnNextPermissionRequest(privateKey: string): void {
    this.picked = privateKey;
  }

  private async emit(event: string, payload: unknown): Promise<void> {
    await this.page.evaluate(([e, p]) => (window as unknown as { __testWalletEmit(e: string, p: unknown): void }).__testWalletEmit(e as string, p), [event, payload] as const);
  }

  private async handle(method: string, params: unknown[]): Promise<{ result?: unknown; error?: { code: number; message: string } }> {
    this.calls.push(method);
    if (this.rejectNext.delete(method as Rejectable)) return { error: { code: 4001, message: 'User rejected the request.' } };
    try {
      switch (method) {
        case 'eth_requestAccounts':
        case 'eth_accounts':
          return { result: [this.signer.address.toLowerCase()] };
        case 'eth_chainId':
          return { result: `0x${this.chainId.toString(16)}` };
        case 'net_version':
          return { result: String(this.chainId) };
        case 'personal_sign': {
          const [data] = params as [string];
          const message = isHexString(data) ? toUtf8String(getBytes(data)) : data;
          return { result: await this.signer.signMessage(message) };
        }
        case 'eth_signTypedData_v4': {
          const [, json] = params as [string, string];
          const typed = JSON.parse(json) as { domain: Record<string, unknown>; types: Record<string, Array<{ name: string; type: string }>>; message: Record<string, unknown> };
          const { EIP712Domain: _domain, ...types } = typed.types;
          return { result: await this.signer.signTypedData(typed.domain, types, typed.message) };
        }
        case 'wallet_requestPermissions': {
          if (this.picked) {
            const key = this.picked;
            this.picked = null;
            await this.changeAccount(key);
          }
          return { result: [{ parentCapability: 'eth_accounts' }] };
        }
        case 'wallet_switchEthereumChain': {
          const [{ chainId }] = params as [{ chainId: string }];
          await this.switchChain(Number.parseInt(chainId, 16));
          return { result: null };
        }
        case 'eth_sendTransaction': {
          const [tx] = params as [{ to?: string; value?: string; data?: string; gas?: string }];
          const sent = await this.signer.sendTransaction({ to: tx.to, value: tx.value ? BigInt(tx.value) : undefined, data: tx.data, gasLimit: tx.gas ? BigInt(tx.gas) : undefined });
          return { result: sent.hash };
        }
        default:
          return { result: await this.chain.send(method, params) };
      }
    } catch (error) {
      return { error: { code: -32603, message: (error as Error).message } };
    }
  }
}
