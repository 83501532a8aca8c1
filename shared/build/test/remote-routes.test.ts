import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { badFirstCalls, routesFileProblems } from '../../contracts/src/remote-routes';

const repoRoot = join(__dirname, '../../..');
// Every remote folder (mf-*) publishes a routes.json with its build.
const remotes = readdirSync(repoRoot).filter((name) => name.startsWith('mf-'));

describe("each remote's routes.json", () => {
  it('there are remotes to check', () => {
    expect(remotes).toEqual(expect.arrayContaining(['mf-auth', 'mf-cabinet', 'mf-pools', 'mf-referral', 'mf-dao']));
  });

  it.each(remotes)('%s/routes.json is well formed and its first calls name API routes', (remote) => {
    const file = JSON.parse(readFileSync(join(repoRoot, remote, 'routes.json'), 'utf8')) as unknown;
    expect(routesFileProblems(file)).toEqual([]);
  });

  it('no two remotes own the same route', () => {
    const owners = new Map<string, string>();
    for (const remote of remotes) {
      const { routes } = JSON.parse(readFileSync(join(repoRoot, remote, 'routes.json'), 'utf8')) as { routes: { path: string }[] };
      for (const { path } of routes) {
        expect([path, owners.get(path)]).toEqual([path, undefined]);
        owners.set(path, remote);
      }
    }
  });
});

describe('the first calls a route lists', () => {
  const route = { path: '/cabinet/pools/:name', layout: 'inner', firstCalls: ['/dashboard/pools/:name', '/pools/stable/assets', '/dashboard/deposits?pool=:name'] };

  it('name GET routes of the API, a parameter standing for one segment', () => {
    expect(badFirstCalls(route)).toEqual([]);
  });

  it('a call that names no API route fails with the route and the call named', () => {
    const problems = routesFileProblems({ routes: [{ ...route, firstCalls: ['/cabinet/summary', '/cabinet/sumary'] }] });
    expect(problems).toEqual([expect.stringContaining('/cabinet/pools/:name: the first call /cabinet/sumary names no GET route of the API')]);
  });

  it("a POST route, or a parameter the page's path has not, is no first call", () => {
    expect(badFirstCalls({ ...route, firstCalls: ['/dashboard/deposit', '/pools/:id/assets'] })).toEqual(['/dashboard/deposit', '/pools/:id/assets']);
  });

  it('a file without routes is refused', () => {
    expect(routesFileProblems({ routes: [] })).not.toEqual([]);
    expect(routesFileProblems([{ path: '/x', layout: 'auth' }])).not.toEqual([]);
  });
});
