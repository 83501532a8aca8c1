import type { InputHTMLAttributes, ReactNode } from 'react';
import type { Registration } from './useAuthForm';

interface FieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  id: string;
  label: ReactNode;
  /** The message to show, already in the page's language. */
  error?: string;
  /** A standing explanation under the field (e.g. the password rules). */
  hint?: ReactNode;
  registration?: Registration;
}

/** The input's own attributes: its state and what describes it (its hint, then its error). */
function inputProps({ id, error, hint, registration, ...input }: Omit<FieldProps, 'label' | 'className'>) {
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return { id, 'aria-invalid': error ? true : undefined, 'aria-describedby': described || undefined, ...input, ...registration };
}

/** The hint and the error under a field, with the ids its input points at. */
function Notes({ id, hint, error }: Pick<FieldProps, 'id' | 'hint' | 'error'>) {
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

const fieldClass = (base: string, error: string | undefined, extra: string | undefined) =>
  [base, error ? 'field--invalid' : '', extra ?? ''].filter(Boolean).join(' ');

/** A labelled input whose error sits beside it and is read with it by screen readers. */
export function TextField({ label, className, ...props }: FieldProps) {
  return (
    <div className={fieldClass('field', props.error, className)}>
      <label htmlFor={props.id}>{label}</label>
      <input {...inputProps(props)} />
      <Notes id={props.id} hint={props.hint} error={props.error} />
    </div>
  );
}

/** A checkbox with its label after it, and its error beside it. */
export function CheckboxField({ label, className, ...props }: FieldProps) {
  return (
    <div className={fieldClass('field field--check', props.error, className)}>
      <div className="field__check-row">
        <input type="checkbox" {...inputProps(props)} />
        <label htmlFor={props.id}>{label}</label>
      </div>
      <Notes id={props.id} hint={props.hint} error={props.error} />
    </div>
  );
}

/** The submit button: disabled with a busy label while its request runs. */
export function SubmitButton({ busy, label, busyLabel }: { busy: boolean; label: string; busyLabel: string }) {
  return (
    <button type="submit" className="btn btn--primary" disabled={busy}>
      {busy ? busyLabel : label}
    </button>
  );
}
