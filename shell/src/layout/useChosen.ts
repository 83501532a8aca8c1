import { useState } from 'react';

/**
 * What a control shows for a choice that goes through the bus: the one just chosen, until the bus
 * applies a value (the bus may still be loading its command schema, which makes a command wait a
 * moment), else the applied one. A control bound to the applied value alone would spring back
 * under the pointer in the meantime.
 */
export function useChosen<T>(applied: T): [shown: T, choose: (value: T) => void] {
  const [chosen, setChosen] = useState<{ value: T; over: T }>();
  const shown = chosen && chosen.over === applied ? chosen.value : applied;
  return [shown, (value) => setChosen({ value, over: applied })];
}
