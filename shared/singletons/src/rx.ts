// The part of rxjs the bus needs. Module Federation shares a module whole, so sharing rxjs itself
// would load all of it on every page. Add a name here (and bump the minor version) before using it.
export { BehaviorSubject, Observable, Subject } from 'rxjs';
export type { Observer, Subscription } from 'rxjs';
