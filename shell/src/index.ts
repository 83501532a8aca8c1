// With experiments.asyncStartup the MF runtime and shared modules are ready before this runs.
import './styles.css';
import { start } from './app/start';

void start();
