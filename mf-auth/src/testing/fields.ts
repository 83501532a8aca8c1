import { act, fireEvent } from '@testing-library/react';

/** The error text tied to a field for screen readers (aria-invalid and aria-describedby). */
export function describedError(input: HTMLElement): string {
  expect(input.getAttribute('aria-invalid')).toBe('true');
  const ids = (input.getAttribute('aria-describedby') ?? '').split(' ');
  const error = ids.map((id) => document.getElementById(id)).find((el) => el?.classList.contains('field__error'));
  return error?.textContent ?? '';
}

export function type(input: HTMLElement, value: string) {
  fireEvent.input(input, { target: { value } });
}

/** Clicks and lets the form's validation and request settle. */
export async function click(element: HTMLElement) {
  await act(async () => {
    fireEvent.click(element);
  });
}

export const isDisabled = (element: HTMLElement) => (element as HTMLButtonElement).disabled;
