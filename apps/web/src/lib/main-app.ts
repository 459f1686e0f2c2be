import { useCallback } from 'react';
import { useNavigate } from './navigation';
import { useConfig } from './config';

/**
 * Where a signed-in user goes (MAIN_APP_URL). The built-in home is a client route, so it is reached
 * without a reload; a main app on another origin is opened with a full navigation.
 */
export function useGoToMainApp(): () => void {
  const navigate = useNavigate();
  const { mainAppUrl } = useConfig();
  return useCallback(() => {
    const target = new URL(mainAppUrl, window.location.origin);
    if (target.origin === window.location.origin)
      navigate(`${target.pathname}${target.search}${target.hash}`, { replace: true });
    else window.location.assign(target.toString());
  }, [navigate, mainAppUrl]);
}
