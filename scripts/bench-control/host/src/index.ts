// The load benchmark's control host: the floor of the required stack (React, ReactDOM, the
// router, the MF runtime, single-spa) mounting one remote, served like the shell.
import { start } from './start';

void start();
