// The router as the shell and the remotes use it. Module Federation shares a module whole, so
// sharing react-router itself would load all of it (data routers, forms, server rendering) on
// every page; shared through this list, only what the front ends use (sizes: docs/benchmarks.md).
//
// Add a name here (and bump this package's minor version) before using it anywhere: the shell's
// copy is the one every remote gets, so a remote built against a newer list needs a newer shell.
export {
  Link,
  MemoryRouter,
  NavLink,
  Navigate,
  NavigationType,
  Outlet,
  Route,
  Router,
  Routes,
  UNSAFE_createBrowserHistory as createBrowserHistory,
  matchPath,
  useLocation,
  useNavigate,
  useParams,
  useRoutes,
  useSearchParams,
} from 'react-router-dom';
export type { Location, NavLinkProps, Navigator, RouteObject, To } from 'react-router-dom';
