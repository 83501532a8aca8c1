// The part of rxjs the bus needs. Module Federation shares a module whole: all of rxjs is about
// 18 KB gzipped, this list about 3 KB. Add a name here (and bump the minor version) before using it.
export { BehaviorSubject, Observable, Subject } from 'rxjs';
export type { Observer, Subscription } from 'rxjs';
