import { remoteEntryUrl } from './contract';
import { mfManifestSchema } from './manifest';

const manifest = (remoteEntry: { name: string; path: string }, publicPath?: string) =>
  mfManifestSchema.parse({ name: 'mf_pools', metaData: { remoteEntry: { ...remoteEntry, type: 'global' }, ...(publicPath ? { publicPath } : {}) } });

describe('a remote container script from its mf-manifest.json', () => {
  it("sits beside the manifest when the build's publicPath is 'auto'", () => {
    expect(remoteEntryUrl(manifest({ name: 'remoteEntry.js', path: '' }, 'auto'), 'http://localhost:3003/mf-manifest.json')).toBe('http://localhost:3003/remoteEntry.js');
    expect(remoteEntryUrl(manifest({ name: 'remoteEntry.js', path: '' }, 'auto'), 'https://cdn.example.com/pools/v2/mf-manifest.json')).toBe('https://cdn.example.com/pools/v2/remoteEntry.js');
  });

  it('follows the path and a fixed publicPath', () => {
    expect(remoteEntryUrl(manifest({ name: 'remoteEntry.js', path: 'static/' }, 'auto'), 'https://cdn.example.com/pools/mf-manifest.json')).toBe('https://cdn.example.com/pools/static/remoteEntry.js');
    expect(remoteEntryUrl(manifest({ name: 'remoteEntry.js', path: '' }, 'https://assets.example.com/pools/'), 'https://cdn.example.com/mf-manifest.json')).toBe('https://assets.example.com/pools/remoteEntry.js');
  });

  it('refuses a file that is not a manifest', () => {
    expect(mfManifestSchema.safeParse({ name: 'x', metaData: {} }).success).toBe(false);
    expect(mfManifestSchema.safeParse('<html>').success).toBe(false);
  });
});
