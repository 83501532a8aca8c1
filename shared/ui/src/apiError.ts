// The API client's errors cross the remote boundary as the shell's objects: recognised by shape,
// never with instanceof (their class is the shell bundle's copy).

/** The API client's error: the status and the server's message in the page language. */
export function isApiError(error: unknown): error is { status: number; message: string; fields?: Record<string, string> } {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as { name?: unknown }).name === 'ApiError' &&
    typeof (error as { status?: unknown }).status === 'number' &&
    typeof (error as { message?: unknown }).message === 'string'
  );
}
