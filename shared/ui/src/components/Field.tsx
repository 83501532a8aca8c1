import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes } from 'react';

export interface FieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  id: string;
  label: ReactNode;
  /** The message to show, already in the page's language. */
  error?: string | undefined;
  /** A standing explanation under the field (e.g. the password rules). */
  hint?: ReactNode;
}

/** The input's state and what describes it (its hint, then its error), read with it by screen readers. */
export function describedInput(id: string, error: string | undefined, hint: ReactNode) {
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return { id, 'aria-invalid': error ? true : undefined, 'aria-describedby': described || undefined } as const;
}

/** The hint and the error under a field, with the ids its input points at. */
export function FieldNotes({ id, hint, error }: Pick<FieldProps, 'id' | 'hint' | 'error'>) {
  return (
    <>
      {hint ? (
        <p id={`${id}-hint`} className="field__hint">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="field__error">
          {error}
        </p>
      ) : null}
    </>
  );
}

/** The field's wrapper classes: its kind, invalid when it has an error, and the caller's own. */
export const fieldClass = (base: string, error: string | undefined, extra: string | undefined) =>
  [base, error ? 'field--invalid' : '', extra ?? ''].filter(Boolean).join(' ');

/** A labelled input with its hint and error under it. */
export function Field({ id, label, error, hint, className, ...input }: FieldProps) {
  return (
    <div className={fieldClass('field', error, className)}>
      <label htmlFor={id}>{label}</label>
      <input {...describedInput(id, error, hint)} {...input} />
      <FieldNotes id={id} hint={hint} error={error} />
    </div>
  );
}

export interface SelectFieldProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id' | 'children'> {
  id: string;
  label: ReactNode;
  /** The choices in order: the value sent and the text shown (already in the page's language). */
  options: readonly { value: string; label: string }[];
  error?: string | undefined;
  hint?: ReactNode;
}

/** A labelled select with its hint and error under it: `Field`'s twin for a choice from a list. */
export function SelectField({ id, label, options, error, hint, className, ...select }: SelectFieldProps) {
  return (
    <div className={fieldClass('field', error, className)}>
      <label htmlFor={id}>{label}</label>
      <select {...describedInput(id, error, hint)} {...select}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <FieldNotes id={id} hint={hint} error={error} />
    </div>
  );
}

/** The form's general message, when a submit found problems in its fields. */
export function FormSummary({ text }: { text: string | undefined }) {
  return text ? (
    <p className="field__error form__summary" role="alert">
      {text}
    </p>
  ) : null;
}
