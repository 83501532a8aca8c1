import { useCallback, useState, type BaseSyntheticEvent } from 'react';
import { get, useForm, type DefaultValues, type FieldValues, type Path } from 'react-hook-form';
import { apiFailure, apiMessages as M } from '@app/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import type * as z from 'zod/mini';
import { useTranslation } from '@app/singletons/react-i18n';
import { useNotify } from '@app/ui';
import { useMessage } from './errors';

/**
 * A settings form: checked by a schema from the contracts (the server checks the same) on
 * submit and while a wrong field is corrected; messages in the page's language beside their fields; a failed
 * request puts the server's per-field messages there too.
 */
export function useSettingsForm<S extends z.ZodMiniType<FieldValues, FieldValues>>(schema: S, defaultValues: DefaultValues<z.input<S>>) {
  const message = useMessage();
  const notify = useNotify();
  const { t } = useTranslation();
  const form = useForm<z.input<S>, unknown, z.output<S>>({
    // The resolver's overloads cannot follow a generic schema.
    resolver: zodResolver(schema as never) as never,
    // Checked on submit, then again as the person corrects a field. Not on leaving a field: its
    // message would appear under it while the pointer is on its way to the button below, move
    // the button mid-click, and the click would miss.
    mode: 'onSubmit',
    reValidateMode: 'onChange',
    defaultValues,
  });
  const { register, setError, setFocus, formState } = form;

  const field = (name: Path<z.input<S>>) => {
    const text = (get(formState.errors, name) as { message?: string } | undefined)?.message;
    return { ...register(name), error: text ? message(text) : undefined };
  };

  const fail = useCallback(
    (error: unknown) => {
      const failure = apiFailure(error);
      const fields = Object.entries(failure?.fields ?? {}).filter(([name]) => name in (form.getValues() as object));
      for (const [name, text] of fields) setError(name as Path<z.input<S>>, { type: 'server', message: text });
      if (fields[0]) setFocus(fields[0][0] as Path<z.input<S>>);
      notify({ kind: 'error', title: t('form.errorTitle'), message: message(failure && failure.status > 0 ? failure.message : t('form.failed')) });
    },
    [form, message, notify, setError, setFocus, t],
  );

  const succeed = useCallback((text: string) => notify({ kind: 'success', title: t('form.successTitle'), message: message(text) }), [message, notify, t]);

  /** Set when a submit found problems: the spec's general message, above the fields' own. */
  const [invalid, setInvalid] = useState(false);
  const submit = (onValid: (values: z.output<S>) => Promise<void>) => (event?: BaseSyntheticEvent) =>
    form.handleSubmit(
      async (values) => {
        setInvalid(false);
        await onValid(values);
      },
      () => setInvalid(true),
    )(event);
  const summary = invalid ? message(M.invalidFields) : undefined;

  return { ...form, field, fail, succeed, submit, summary, busy: formState.isSubmitting };
}
