import type { ShellBus } from '@app/ui';
import type { RemoteWallet, TypedDataRequest } from '@app/contracts';
import { chainOps, type WalletConnection } from './connection';
import type { AccountLink } from './accountLink';

/**
 * The wallet as remotes use it (the parcel props' `wallet`, typed by RemoteWallet in
 * @app/contracts): transfers, confirmations, balances, typed-data signatures and a new wallet's proof.
 */
export function createRemoteWallet({ bus, connection, link }: { bus: ShellBus; connection: WalletConnection; link: AccountLink }): RemoteWallet {
  const { refreshBalances } = connection;

  /** EIP-712 (eth_signTypedData_v4): the domain type is derived from the fields the domain has. */
  async function signTypedData(request: TypedDataRequest) {
    const { provider: p, account } = await connection.connected();
    const domainFields = [
      ['name', 'string'],
      ['version', 'string'],
      ['chainId', 'uint256'],
      ['verifyingContract', 'address'],
    ].filter(([field]) => (request.domain as Record<string, unknown>)[field!] !== undefined);
    const typed = {
      types: { EIP712Domain: domainFields.map(([name, type]) => ({ name: name!, type: type! })), ...request.types },
      domain: request.domain,
      primaryType: request.primaryType,
      message: request.message,
    };
    const signature = (await p.request({ method: 'eth_signTypedData_v4', params: [account, JSON.stringify(typed)] })) as string;
    const { checksum } = await chainOps();
    return { address: checksum(account), signature };
  }

  return {
    sendTransfer: async (transfer) => {
      const provider = connection.provider();
      const { chainId } = bus.wallet.getValue();
      if (!provider || !bus.wallet.getValue().connected || chainId === null) throw new Error('Metamask not connection');
      const { sendTransfer } = await chainOps();
      const sent = await sendTransfer(provider, chainId, transfer);
      void refreshBalances();
      return sent;
    },
    waitForConfirmations: async (hash, confirmations) => {
      const provider = connection.provider();
      const { chainId } = bus.wallet.getValue();
      if (!provider || chainId === null) throw new Error('Metamask not connection');
      const { waitForConfirmations } = await chainOps();
      await waitForConfirmations(provider, chainId, hash, confirmations);
      void refreshBalances();
    },
    refreshBalances,
    signTypedData,
    proveNewWallet: link.proveNewWallet,
  };
}
