import { useCallback, useRef, useState } from "react";
import { useLocation } from "react-router";

/**
 * UI state kept in the query string without a router navigation per change: the URL is replaced in
 * place (history.replaceState keeps the router's own history entry) and only the component that owns
 * the state re-renders. Sliders and tabs change many times a second; a navigation would re-run route
 * matching and re-render every route component each time. When the router itself navigates (a link,
 * Back), the state is read again from the new URL.
 */
export function useUrlSearchState<T>(
  read: (params: URLSearchParams) => T,
  write: (state: T) => URLSearchParams,
): [T, (change: (current: T) => T) => void] {
  const location = useLocation();
  const [state, setState] = useState(() => read(new URLSearchParams(location.search)));
  const [routerKey, setRouterKey] = useState(location.key);
  const current = useRef(state);

  if (routerKey !== location.key) {
    // The router moved (not us): the URL is the truth again.
    const fromUrl = read(new URLSearchParams(location.search));
    setRouterKey(location.key);
    setState(fromUrl);
    current.current = fromUrl;
  }

  const update = useCallback(
    (change: (current: T) => T) => {
      const next = change(current.current);
      current.current = next;
      const query = write(next).toString();
      const url = `${window.location.pathname}${query ? `?${query}` : ""}${window.location.hash}`;
      window.history.replaceState(window.history.state, "", url);
      setState(next);
    },
    [write],
  );

  return [state, update];
}
