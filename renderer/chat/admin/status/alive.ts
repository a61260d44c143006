/** Whether the component is still on the page: a progress poll stops once its section is left. */
import { useEffect, useRef } from 'preact/hooks';

export function useAlive(): { readonly current: boolean } {
  const alive = useRef(true);
  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
    };
  }, []);
  return alive;
}

export const pause = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
