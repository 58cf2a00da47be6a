import { Fragment, useMemo, useState, type FormEvent } from 'react';
import { Alert, Anchor, Button, Checkbox, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { Link } from 'react-router';
import {
  answerFields,
  checkPassword,
  customerSignupInput,
  fieldLabels,
  isValidPhone,
  passwordPolicyFromConfig,
  passwordRuleTexts,
  texts,
  type AuthTokens,
} from '@estudio/core';
import { trpc } from '../../api/trpc.ts';
import { errorFacts } from '../../api/errors.ts';
import { useAppConfig } from '../../config/AppConfigContext.tsx';
import { useSession } from '../../session/SessionProvider.tsx';
import { signInPath, useReturnTo } from '../../session/return-to.ts';
import { showError } from '../../ui/alerts.ts';
import { maxLengthsOf, useFormErrors } from '../../ui/form-errors.ts';
import { DocumentModal, type StudioDocument } from '../../ui/DocumentModal.tsx';
import { AnswerInputs, answerErrors, answersToSend, needsConsent, useCustomerFieldDefinitions } from '../account/profile/answers.tsx';
import { PhoneInput } from '../account/profile/DynamicField.tsx';
import { UploadError } from '../account/profile/upload.ts';
import { EmailField } from './EmailField.tsx';
import { PasswordField } from './PasswordField.tsx';

interface SignupForm {
  name: string;
  last_name: string;
  email: string;
  phone: string;
  birthdate: string;
  instagram: string;
  signup_reason: string | null;
  signup_reason_other: string;
  password: string;
  password_confirm: string;
}

type FormErrors = Partial<Record<string, string>>;

/** The fields in screen order, as the summary alert names them ('Revisa el campo: Apellidos'); the terms speak for themselves. */
const labels: Record<keyof SignupForm | 'terms', string> = {
  ...fieldLabels(['name', 'last_name', 'email', 'phone', 'birthdate', 'instagram', 'signup_reason', 'signup_reason_other', 'password', 'password_confirm'] as const),
  terms: '',
};
/** The server's limits, from the same schemas it checks with. */
const limits = maxLengthsOf(customerSignupInput.shape);

const empty: SignupForm = {
  name: '',
  last_name: '',
  email: '',
  phone: '',
  birthdate: '',
  instagram: '',
  signup_reason: null,
  signup_reason_other: '',
  password: '',
  password_confirm: '',
};

const optional = (label: string) => `${label} ${texts.forms.optional}`;

interface SignupFormProps {
  /** Replaces the 'Entrar' link under the button (checkout switches to its inline sign-in instead). */
  onSignInInstead?: () => void;
}

/**
 * The sign-up form (spec: the customer's fields plus password and
 * password_confirm, and the acceptance checkbox when a page is required).
 * Used by /registro and inline at checkout; on success the session starts.
 *
 * A sign-up is two steps, the identity and then the customer, and the second
 * can be refused (a phone already registered) or never sent (a closed tab).
 * No half account is a dead end: signing up again with the same
 * e-mail and password signs in to that identity and creates its customer, and
 * an identity signed in without a customer ('needsProfile') gets this form
 * without e-mail and password, to finish its profile.
 */
export function SignupForm({ onSignInInstead }: SignupFormProps) {
  const config = useAppConfig();
  const { status, store, tokens: session, signOut } = useSession();
  const returnTo = useReturnTo();
  const completing = status === 'needsProfile';
  const utils = trpc.useUtils();
  const pages = trpc.pages.list.useQuery(undefined, { staleTime: 5 * 60_000 });
  const requiredPages = useMemo(() => (pages.data?.pages ?? []).filter((page) => page.required), [pages.data]);

  const [form, setForm] = useState<SignupForm>(empty);
  const [accepted, setAccepted] = useState(false);
  // The studio's own questions of its sign-up form (decision 087), after the account's fields, and a health answer's consent.
  const { definitions } = useCustomerFieldDefinitions();
  const questions = useMemo(() => answerFields(definitions).filter((d) => d.placement === 'signup'), [definitions]);
  const [answers, setAnswers] = useState<Record<string, unknown>>({});
  const [consent, setConsent] = useState(false);
  // The optional messages' own yes, unticked until she ticks it (decision 120).
  const [optionalMessages, setOptionalMessages] = useState(false);
  const consentNeeded = needsConsent(questions, answers, {});
  const allLabels = useMemo(
    () => ({ ...labels, ...Object.fromEntries(questions.map((q) => [q.key, q.label])), sensitive_consent: '' }) as Record<string, string>,
    [questions],
  );
  const { errors, fail, failFromServer, clear } = useFormErrors(allLabels);
  const [submitting, setSubmitting] = useState(false);
  // The studio registered this e-mail at the desk: the server mailed the link that creates the password (decision 017),
  // or, while the studio cannot send e-mail, says so and sends her to the counter (`mailed` false).
  const [claimSent, setClaimSent] = useState<{ email: string; message: string; mailed: boolean } | null>(null);
  const [openDocument, setOpenDocument] = useState<StudioDocument | null>(null);
  // The identity created on a previous attempt whose customer step failed (e.g. phone taken), reused on retry.
  const [pending, setPending] = useState<{ email: string; password: string; tokens: AuthTokens } | null>(null);

  const set = <K extends keyof SignupForm>(key: K, value: SignupForm[K]) => {
    setForm((f) => ({ ...f, [key]: value }));
    clear(key);
  };

  const validate = (): FormErrors => {
    const found: FormErrors = {};
    const required: (keyof SignupForm)[] = completing
      ? ['name', 'last_name', 'phone', 'birthdate']
      : ['name', 'last_name', 'email', 'phone', 'birthdate', 'password', 'password_confirm'];
    for (const key of required) if (!String(form[key] ?? '').trim()) found[key] = texts.forms.fieldRequired;
    if (form.phone && (form.phone.length !== 10 || !isValidPhone(form.phone))) found.phone = texts.auth.phoneFormat;
    if (form.password && !completing) {
      const policy = passwordPolicyFromConfig(config);
      const broken = checkPassword(form.password, policy)[0];
      if (broken) found.password = passwordRuleTexts[broken](policy);
    }
    if (form.password && form.password_confirm && form.password !== form.password_confirm) found.password_confirm = texts.auth.passwordsMismatch;
    Object.assign(found, answerErrors(questions, answers, { needed: consentNeeded, given: consent }));
    if (requiredPages.length > 0 && !accepted) found.terms = texts.auth.mustAcceptTerms;
    return found;
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (fail(validate())) return;
    setSubmitting(true);
    const email = completing ? (session?.email ?? '') : form.email.trim().toLowerCase();
    const customerData = {
      name: form.name.trim(),
      last_name: form.last_name.trim(),
      email,
      phone: form.phone,
      birthdate: form.birthdate || undefined,
      instagram: form.instagram.trim() || undefined,
      signup_reason: form.signup_reason ?? undefined,
      signup_reason_other: form.signup_reason === texts.forms.signupReasonOtherValue ? form.signup_reason_other.trim() || undefined : undefined,
      accepted_page_ids: accepted ? requiredPages.map((page) => page.page_id) : [],
      optional_messages: optionalMessages,
    };
    /** The answers, files uploaded first with the identity's token (the session starts after the customer exists). */
    const withAnswers = async (idToken?: string) => {
      const custom_fields = await answersToSend(questions, answers, { store, ...(idToken ? { idToken } : {}) });
      return { ...customerData, ...(Object.keys(custom_fields).length ? { custom_fields } : {}), ...(consentNeeded ? { sensitive_consent: true } : {}) };
    };
    try {
      if (completing) {
        // The session's identity is already signed in: only its customer is missing.
        try {
          await utils.client.customer.signup.mutate(await withAnswers());
        } catch (error) {
          if (errorFacts(error).code === 'customer/phone-taken') fail({ phone: texts.auth.phoneTaken });
          else failFromServer(error);
          return;
        }
        await utils.customer.me.invalidate();
        return;
      }
      let tokens = pending && pending.email === email && pending.password === form.password ? pending.tokens : null;
      if (!tokens) {
        try {
          tokens = await store.authClient.signUp(email, form.password);
        } catch (error) {
          const { code, message } = errorFacts(error);
          if (code === 'auth/customer-claim-sent' || code === 'auth/customer-claim-waiting') {
            setClaimSent({ email, message, mailed: code === 'auth/customer-claim-sent' });
            return;
          }
          if (code !== 'auth/email-already-in-use') {
            failFromServer(error);
            return;
          }
          // The identity may be the half of an earlier sign-up that stopped before its customer: the same e-mail
          // and password resume it (the customer step below answers 409 if the account is in fact complete).
          try {
            tokens = await store.authClient.signIn(email, form.password);
          } catch {
            showError(texts.auth.signupExists);
            return;
          }
        }
        setPending({ email, password: form.password, tokens });
      }
      try {
        await utils.client.customer.signup.mutate(await withAnswers(tokens.idToken), { context: { idToken: tokens.idToken } });
      } catch (error) {
        if (error instanceof UploadError) {
          showError(error.message);
          return;
        }
        const { code, status: httpStatus, field } = errorFacts(error);
        if (code === 'customer/phone-taken') {
          // The identity stays so a corrected phone can finish the same sign-up.
          fail({ phone: texts.auth.phoneTaken });
          return;
        }
        if (field) {
          // A field the server refused (too long, a bad date): the identity stays, the person corrects it and sends again.
          failFromServer(error);
          return;
        }
        setPending(null);
        store.signOut();
        if (code === 'customer/already-exists' || httpStatus === 409) showError(texts.auth.signupExists);
        else failFromServer(error);
        return;
      }
      setPending(null);
      store.start(tokens);
    } finally {
      setSubmitting(false);
    }
  };

  const reasons = texts.forms.signupReasonOptions.map((value) => ({ value, label: value }));

  if (claimSent) {
    return (
      <Stack gap="md">
        <Alert color="blue" variant="light" role="status" title={texts.auth.claimSentHeading}>
          <Stack gap="xs">
            <Text size="sm">{claimSent.message}</Text>
            {claimSent.mailed && <Text size="sm">{texts.auth.claimSentHint(claimSent.email)}</Text>}
          </Stack>
        </Alert>
        <Button component={Link} to={signInPath(returnTo)} size="md" variant="light" fullWidth>
          {texts.forms.backToLogin}
        </Button>
      </Stack>
    );
  }

  return (
    <>
      <form onSubmit={submit} noValidate aria-label={completing ? texts.auth.completeHeading : undefined}>
        <Stack gap="md">
          {completing && (
            <Stack gap={4}>
              <Text fw={700}>{texts.auth.completeHeading}</Text>
              <Text size="sm">{texts.auth.completeIntro(session?.email ?? '')}</Text>
            </Stack>
          )}
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md" verticalSpacing="md">
            <TextInput label={texts.forms.name} name="name" autoComplete="given-name" maxLength={limits.name} value={form.name} onChange={(e) => set('name', e.currentTarget.value)} error={errors.name} />
            <TextInput label={texts.forms.lastName} name="last_name" autoComplete="family-name" maxLength={limits.last_name} value={form.last_name} onChange={(e) => set('last_name', e.currentTarget.value)} error={errors.last_name} />
            {completing ? (
              <TextInput label={texts.forms.email} name="email" type="email" value={session?.email ?? ''} readOnly disabled />
            ) : (
              <EmailField value={form.email} onChange={(e) => set('email', e.currentTarget.value)} error={errors.email} />
            )}
            <PhoneInput common={{ label: texts.forms.phone, error: errors.phone, name: 'phone', withAsterisk: false }} value={form.phone} onChange={(value) => set('phone', value)} />
            <TextInput label={texts.forms.birthdate} name="birthdate" type="date" autoComplete="bday" value={form.birthdate} onChange={(e) => set('birthdate', e.currentTarget.value)} error={errors.birthdate} max={new Date().toISOString().slice(0, 10)} />
            <TextInput label={optional(texts.forms.instagram)} name="instagram" placeholder="@" maxLength={limits.instagram} value={form.instagram} onChange={(e) => set('instagram', e.currentTarget.value)} error={errors.instagram} />
          </SimpleGrid>
          <Select
            label={optional(texts.forms.signupReason)}
            name="signup_reason"
            data={reasons}
            value={form.signup_reason}
            onChange={(value) => set('signup_reason', value)}
            clearable
            allowDeselect
            comboboxProps={{ withinPortal: true }}
          />
          {form.signup_reason === texts.forms.signupReasonOtherValue && (
            <TextInput label={optional(texts.forms.signupReasonOther)} name="signup_reason_other" maxLength={limits.signup_reason_other} value={form.signup_reason_other} onChange={(e) => set('signup_reason_other', e.currentTarget.value)} error={errors.signup_reason_other} />
          )}
          {questions.length > 0 && (
            <AnswerInputs
              fields={questions}
              values={answers}
              errors={errors}
              onChange={(key, value) => {
                setAnswers((current) => ({ ...current, [key]: value }));
                clear(key);
              }}
              consent={{
                needed: consentNeeded,
                given: consent,
                onChange: (given) => {
                  setConsent(given);
                  clear('sensitive_consent');
                },
              }}
            />
          )}
          {!completing && (
            <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md" verticalSpacing="md">
              <PasswordField label={texts.forms.password} name="password" autoComplete="new-password" value={form.password} onChange={(e) => set('password', e.currentTarget.value)} error={errors.password} />
              <PasswordField label={texts.forms.passwordConfirm} name="password_confirm" autoComplete="new-password" value={form.password_confirm} onChange={(e) => set('password_confirm', e.currentTarget.value)} error={errors.password_confirm} />
            </SimpleGrid>
          )}
          {requiredPages.length > 0 && (
            <Checkbox
              checked={accepted}
              onChange={(e) => {
                setAccepted(e.currentTarget.checked);
                clear('terms');
              }}
              error={errors.terms}
              label={
                <>
                  {texts.blocking.accept}{' '}
                  {requiredPages.map((page, index) => (
                    <Fragment key={page.page_id}>
                      {index > 0 && (index === requiredPages.length - 1 ? ' y ' : ', ')}
                      <Anchor component="button" type="button" inherit onClick={() => setOpenDocument(page)}>
                        {page.title}
                      </Anchor>
                    </Fragment>
                  ))}
                </>
              }
            />
          )}
          <Checkbox
            name="optional_messages"
            checked={optionalMessages}
            onChange={(e) => setOptionalMessages(e.currentTarget.checked)}
            label={texts.auth.optionalMessagesConsent}
            description={texts.auth.optionalMessagesHint}
          />
          <Button type="submit" size="md" fullWidth loading={submitting || status === 'signingIn'}>
            {completing ? texts.auth.completeButton : texts.forms.signupButton}
          </Button>
          <Text ta="center" size="sm">
            {completing ? (
              <Anchor component="button" type="button" fw={600} onClick={signOut}>
                {texts.auth.otherAccount}
              </Anchor>
            ) : (
              <>
                {texts.forms.haveAccount}{' '}
                {onSignInInstead ? (
                  <Anchor component="button" type="button" fw={600} onClick={onSignInInstead}>
                    {texts.forms.signInLink}
                  </Anchor>
                ) : (
                  <Anchor component={Link} to={signInPath(returnTo)} fw={600}>
                    {texts.forms.signInLink}
                  </Anchor>
                )}
              </>
            )}
          </Text>
        </Stack>
      </form>
      <DocumentModal document={openDocument} onClose={() => setOpenDocument(null)} />
    </>
  );
}
