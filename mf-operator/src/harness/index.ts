// Runs this remote alone, with a stand-in for the shell (npm run dev -w mf-operator).
import { runHarness } from '@app/ui/harness';
import * as remote from '../lifecycles';

void runHarness(remote);
