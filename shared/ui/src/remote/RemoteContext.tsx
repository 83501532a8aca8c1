import { createContext, useContext } from 'react';
import type { RemoteProps } from '@app/contracts';

export const RemoteContext = createContext<RemoteProps | null>(null);

/** The parcel props of the remote this component renders in. */
export function useRemote(): RemoteProps {
  const value = useContext(RemoteContext);
  if (!value) throw new Error('useRemote must be used inside a remote mounted by createRemote');
  return value;
}
