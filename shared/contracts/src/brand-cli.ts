// npm run brand -- check <dir>: checks a brand folder before it is deployed, with the same checks
// the shell's server and the API apply when they load it. Exit code 0 when it passes, 2 with one
// line per problem when it does not (and for a usage error).
import { basename, resolve } from 'node:path';
import { checkBrandFolder } from './brand-folder';

export function runBrandCli(args: string[], out: (line: string) => void, err: (line: string) => void): number {
  const [command, dir] = args;
  if (command !== 'check' || !dir) {
    err('usage: npm run brand -- check <brand folder>');
    return 2;
  }
  const folder = resolve(dir);
  const result = checkBrandFolder(folder, basename(folder));
  if (!result.ok) {
    err(`brand ${basename(folder)} is refused:`);
    for (const p of result.problems) err(`  ${p}`);
    return 2;
  }
  out(`brand ${result.brand.id} passes: ${result.brand.title} (${result.brand.hosts.join(', ')})`);
  return 0;
}

if (process.argv[1] && /brand-cli\.ts$/.test(process.argv[1])) {
  process.exitCode = runBrandCli(process.argv.slice(2), (l) => console.log(l), (l) => console.error(l));
}
