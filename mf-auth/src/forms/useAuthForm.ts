import { useCallback } from 'react';
import { get, useForm, type DefaultValues, type FieldValues, type Path } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type * as z from 'zod';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { failureMessage, serverFieldErrors, useMessage } from './messages';
import { useNotify } from './notify';

/**
 * A form of these screens: validated by a schema from @app/contracts when a field is left and on
 * submit, messages shown in the page's language, and one way to report a failed request.
 */
export function useAuthForm<S extends z.ZodType<FieldValues, FieldValues>>(schema: S, defaultValues: DefaultValues<z.input<S>>) {
  const message = useMessage();
  const notify = useNotify();
  const form = useForm<z.input<S>, unknown, z.output<S>>({
    // The resolver's overloads cannot follow a generic schema; the types above are what it gives.
    resolver: zodResolver(schema as never) as never,
    mode: 'onTouched',
    defaultValues,
  });
  const { register, setError, setFocus, trigger, getFieldState, formState } = form;

  /** What a field needs to show: its registration and its message, in the page's language. */
  const field = (name: Path<z.input<S>>): { registration: UseFormRegisterReturn; error?: string } => {
    const text = (get(formState.errors, name) as { message?: string } | undefined)?.message;
    // A message put there by the server or by a button's own check goes as soon as the field is
    // changed, not only when it is left: leaving it for the button below would move the button
    // under the pointer mid-click.
    const onChange = async () => {
      if (getFieldState(name).invalid) await trigger(name);
    };
    return { registration: register(name, { onChange }), error: text ? message(text) : undefined };
  };

  /**
   * A request failed: the server's per-field messages go beside their fields (the first one gets
   * the focus), and an Error notification says the server's message, else `fallback`.
   */
  const fail = useCallback(
    (error: unknown, fallback: string, fields: ReadonlyArray<Path<z.input<S>>>) => {
      const found = serverFieldErrors(error, fields);
      for (const [name, text] of found) setError(name, { type: 'server', message: text });
      if (found[0]) setFocus(found[0][0]);
      notify.error(message(failureMessage(error, fallback)));
    },
    [message, notify, setError, setFocus],
  );

  return { ...form, field, fail, message, notify, busy: formState.isSubmitting };
}
