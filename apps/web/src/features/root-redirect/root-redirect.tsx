import { useEffect } from 'react';
import { useNavigate } from '../../lib/navigation';
import { useConfig } from '../../lib/config';
import { currentToken } from '../../lib/session';
import { isWelcomeSession } from '../../lib/welcome-session';
import { PATHS, userPath } from '../../lib/paths';
import { PageLoading } from '../../components/page-loading';

/**
 * `/`: to the main app when an authorization is stored, otherwise to the login screen (spec §2); a
 * welcome-step session to the welcome step.
 */
export default function RootRedirect() {
  const navigate = useNavigate();
  const { mainAppUrl } = useConfig();
  useEffect(() => {
    if (!currentToken() || isWelcomeSession()) {
      navigate(userPath(currentToken() ? 'welcome' : 'login'), { replace: true });
      return;
    }
    const target = new URL(mainAppUrl, window.location.origin);
    if (target.origin === window.location.origin) navigate(target.pathname || PATHS.home, { replace: true });
    else window.location.replace(target.toString());
  }, [navigate, mainAppUrl]);
  return <PageLoading />;
}
