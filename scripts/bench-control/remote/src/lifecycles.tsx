// The load benchmark's control remote: one page with a two-field form, as single-spa lifecycles.
import React from 'react';
import ReactDOMClient from 'react-dom/client';
import singleSpaReact from 'single-spa-react';

function SignIn() {
  return (
    <main>
      <h1>Sign in</h1>
      <form onSubmit={(e) => e.preventDefault()}>
        <label htmlFor="control-login">E-mail</label>
        <input id="control-login" name="login" type="email" />
        <label htmlFor="control-password">Password</label>
        <input id="control-password" name="password" type="password" />
        <button type="submit">Sign in</button>
      </form>
    </main>
  );
}

const lifecycles = singleSpaReact({ React, ReactDOMClient, rootComponent: SignIn, errorBoundary: () => <p>Error</p> });
export const { bootstrap, mount, unmount } = lifecycles;
