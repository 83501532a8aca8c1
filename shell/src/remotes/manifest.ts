import { runtimeManifestSchema, type RuntimeManifest } from '@app/contracts';

export class ManifestError extends Error {
  constructor(message: string, readonly detail: string) {
    super(message);
    this.name = 'ManifestError';
  }
}

/** Fetches and validates the runtime manifest the server chose for this brand host. */
export async function fetchRuntimeManifest(url = '/remotes.json', fetchImpl: typeof fetch = fetch): Promise<RuntimeManifest> {
  let response: Response;
  try {
    response = await fetchImpl(url, { cache: 'no-store' });
  } catch (error) {
    throw new ManifestError('unreachable', String(error));
  }
  if (!response.ok) throw new ManifestError('unreachable', `HTTP ${response.status}`);
  let body: unknown;
  try {
    body = await response.json();
  } catch (error) {
    throw new ManifestError('malformed', `not JSON: ${String(error)}`);
  }
  const parsed = runtimeManifestSchema.safeParse(body);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    throw new ManifestError('malformed', issues);
  }
  return parsed.data;
}
