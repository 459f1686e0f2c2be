import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { USER_COMPONENTS, USER_STEPS, type UserComponent } from '@suite/contract/core';
import { StepDots } from '../components/step-dots';
import { Illustration } from '../components/illustration';
import { PageLoading } from '../components/page-loading';
import { NotFoundPage } from './not-found-page';

/** One lazy form per componentUrl (spec §2): each screen loads only its own code. */
const FORMS: Record<UserComponent, LazyExoticComponent<ComponentType>> = {
  signup: lazy(() => import('../features/signup/signup-form')),
  welcome: lazy(() => import('../features/welcome/welcome-form')),
  'add-teammates': lazy(() => import('../features/teammates/teammates-form')),
  login: lazy(() => import('../features/login/login-form')),
  'recovery-password': lazy(() => import('../features/recovery/recovery-form')),
  'check-token': lazy(() => import('../features/code-check/code-check-form')),
  'check-token-recovery': lazy(() => import('../features/code-check/code-check-form')),
  'update-password': lazy(() => import('../features/update-password/update-password-form')),
};

const isUserComponent = (value: string | undefined): value is UserComponent =>
  (USER_COMPONENTS as readonly string[]).includes(value ?? '');

/** Two panels: illustration and step dots on the left, the form on the right; forms cross-fade. */
export default function UserLayout() {
  const { componentUrl } = useParams();
  const { t } = useTranslation('common');
  if (!isUserComponent(componentUrl)) return <NotFoundPage />;
  const Form = FORMS[componentUrl];
  const steps = USER_STEPS[componentUrl];
  return (
    <div className="user-layout">
      <aside className="user-layout__aside">
        <div>
          <h2>{t('userLayout.title')}</h2>
          <p>{t('userLayout.text')}</p>
        </div>
        <div className="user-layout__art">
          <Illustration />
        </div>
        {steps ? <StepDots total={steps.total} index={steps.index} /> : <span />}
      </aside>
      <section className="user-layout__form">
        <Suspense fallback={<PageLoading />}>
          <div key={componentUrl} className="fade">
            <Form />
          </div>
        </Suspense>
      </section>
    </div>
  );
}
