import { lazy, useState, type ComponentType, type LazyExoticComponent } from 'react';

export type ScreenModule = { default: ComponentType };

export interface Preloadable {
  /** Renders the loaded component; suspends only while its chunk is still loading. */
  Screen: ComponentType;
  /** Starts loading (once); resolves when it is in. */
  load(): Promise<unknown>;
  /** Whether the chunk is in (a navigation to it can commit at once). */
  readonly loaded: boolean;
}

/**
 * A lazy screen that, once its chunk is in, renders without suspending again: React.lazy would show the
 * fallback for a frame even for a preloaded chunk (a spinner flash between screens).
 */
export function preloadable(load: () => Promise<ScreenModule>): Preloadable {
  let loaded: ComponentType | null = null;
  let loading: Promise<ScreenModule> | null = null;
  const fetchChunk = () => {
    loading ??= load().then(
      (module) => {
        loaded = module.default;
        return module;
      },
      (error: unknown) => {
        loading = null;
        throw error;
      },
    );
    return loading;
  };
  const Lazy: LazyExoticComponent<ComponentType> = lazy(fetchChunk);
  function Screen() {
    // Decided once per mount, so the component type never changes under a mounted screen.
    const [Component] = useState<ComponentType>(() => loaded ?? Lazy);
    return <Component />;
  }
  return {
    Screen,
    load: fetchChunk,
    get loaded() {
      return loaded !== null;
    },
  };
}
