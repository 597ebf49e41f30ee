import type { AdminUser } from "@gradecast/contract/admin";
import { type Role, roles } from "@gradecast/contract/roles";
import { type FormEvent, type ReactNode, useState } from "react";
import { useSession } from "../auth/session.tsx";
import { Alert } from "../components/alert.tsx";
import { Button, type ButtonVariant } from "../components/button.tsx";
import { ConfirmDialog } from "../components/confirm-dialog.tsx";
import { EmptyState } from "../components/empty-state.tsx";
import { Field } from "../components/field.tsx";
import { PageHeader } from "../components/page-header.tsx";
import { Select } from "../components/select.tsx";
import { useFormats } from "../components/use-formats.ts";
import { useReauth } from "../features/account-security/reauth.tsx";
import { AdminFilters } from "../features/admin/admin-filters.tsx";
import { useUserActions, useUserList } from "../features/admin/api.ts";
import { InviteTeacher } from "../features/admin/invite-teacher.tsx";
import { PagedTable } from "../features/admin/paged-table.tsx";
import { requestDeletion } from "../features/privacy/api.ts";
import "../features/admin/admin.css";
import { type PageIntl, useIntl, useT } from "../i18n/intl.tsx";

// /admin/users (issue 8): find accounts by name or email, see role, verification and creation
// date, change a role, approve or reject a pending teacher, disable or re-enable an account, and send a
// password-reset email; end all of a user's sessions, reset their two-step login (issue 18).
// Every change asks first; its error shows in the dialog that asked.

const roleKeys = {
  student: "admin.users.role.student",
  teacher: "admin.users.role.teacher",
  admin: "admin.users.role.admin",
} as const;
// In a sentence, as the approval says it: "is now a teacher".
const roleInSentence = {
  student: "admin.users.roleIn.student",
  teacher: "admin.users.roleIn.teacher",
  admin: "admin.users.roleIn.admin",
} as const;

type Pending =
  | { kind: "role"; user: AdminUser }
  | { kind: "approve"; user: AdminUser }
  | { kind: "reject"; user: AdminUser }
  | { kind: "disable"; user: AdminUser }
  | { kind: "enable"; user: AdminUser }
  | { kind: "reset"; user: AdminUser }
  | { kind: "sessions"; user: AdminUser }
  | { kind: "mfa"; user: AdminUser }
  | { kind: "delete"; user: AdminUser };

export default function AdminUsers() {
  const { user: me, refresh } = useSession();
  const [draft, setDraft] = useState("");
  const [search, setSearch] = useState("");
  const [pendingOnly, setPendingOnly] = useState(false);
  const [reviewOnly, setReviewOnly] = useState(false);
  const [action, setAction] = useState<Pending | null>(null);
  const [notice, setNotice] = useState("");
  const list = useUserList(search, pendingOnly, reviewOnly);
  const users = list.data?.pages.flatMap((p) => p.items) ?? [];
  const { t } = useT();

  function submit(event: FormEvent) {
    event.preventDefault();
    setSearch(draft.trim());
  }

  async function done(message: string, changed?: AdminUser) {
    setAction(null);
    setNotice(message);
    // An admin who changed their own account sees the result at once.
    if (changed && changed.uid === me?.uid) await refresh().catch(() => undefined);
  }

  return (
    <div className="stack">
      <PageHeader title={t("admin.users.title")} description={t("admin.users.description")} />
      <AdminFilters
        label={t("admin.users.search")}
        onSubmit={submit}
        submitLabel={t("admin.users.searchButton")}
        onClear={
          search
            ? () => {
                setDraft("");
                setSearch("");
              }
            : undefined
        }
      >
        <Field
          label={t("admin.users.searchLabel")}
          type="search"
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          maxLength={254}
        />
        <label className="admin-check">
          <input
            type="checkbox"
            checked={pendingOnly}
            onChange={(e) => setPendingOnly(e.target.checked)}
          />
          {t("admin.users.pendingOnly")}
        </label>
        <label className="admin-check">
          <input
            type="checkbox"
            checked={reviewOnly}
            onChange={(e) => setReviewOnly(e.target.checked)}
            aria-describedby="review-hint"
          />
          {t("admin.users.reviewOnly")}
        </label>
        <p className="field-hint" id="review-hint">
          {t("admin.users.reviewHint")}
        </p>
      </AdminFilters>
      <Alert tone="success" className="admin-notice">
        {notice}
      </Alert>
      <UserTable
        state={list}
        users={users}
        meId={me?.uid}
        searching={list.isFetching && !list.isFetchingNextPage}
        onAction={(a) => {
          setNotice("");
          setAction(a);
        }}
        empty={
          search || pendingOnly || reviewOnly ? (
            <EmptyState title={t("admin.users.noMatch")}>{t("admin.users.noMatchHint")}</EmptyState>
          ) : (
            <EmptyState title={t("admin.users.none")} />
          )
        }
      />
      <InviteTeacher />
      {action ? (
        <ActionDialog
          action={action}
          onClose={() => setAction(null)}
          onDone={(message, changed) => done(message, changed)}
        />
      ) : null}
    </div>
  );
}

interface RowAction {
  kind: Pending["kind"];
  label: string;
  /** The button's accessible name, which says whose account it acts on. */
  name: string;
  variant: ButtonVariant;
  /** Turned off for the last active admin (the server refuses it), with the reason beside. */
  guarded?: boolean;
}

/** What a row of the table offers for the account `u`. */
function rowActions(u: AdminUser, meId: string | undefined, intl: PageIntl): RowAction[] {
  const t = (id: string) => intl.formatMessage({ id });
  const named = (id: string) => intl.formatMessage({ id }, { name: u.name });
  const actions: RowAction[] = [];
  if (u.pendingRole === "teacher") {
    actions.push(
      {
        kind: "approve",
        label: t("admin.users.approve"),
        name: named("admin.users.approveName"),
        variant: "primary",
      },
      {
        kind: "reject",
        label: t("admin.users.reject"),
        name: named("admin.users.rejectName"),
        variant: "secondary",
      },
    );
  }
  actions.push({
    kind: "role",
    label: t("admin.users.changeRole"),
    name: named("admin.users.changeRoleName"),
    variant: "secondary",
    guarded: true,
  });
  if (u.disabled) {
    actions.push({
      kind: "enable",
      label: t("admin.users.enable"),
      name: named("admin.users.enableName"),
      variant: "secondary",
    });
    return actions;
  }
  actions.push(
    {
      kind: "disable",
      label: t("admin.users.disable"),
      name: named("admin.users.disableName"),
      variant: "danger",
      guarded: true,
    },
    {
      kind: "reset",
      label: t("admin.users.reset"),
      name: named("admin.users.resetName"),
      variant: "ghost",
    },
  );
  // One's own sessions and two-step login are on Settings.
  if (u.uid !== meId) {
    actions.push(
      {
        kind: "sessions",
        label: t("admin.users.sessions"),
        name: named("admin.users.sessionsName"),
        variant: "ghost",
      },
      {
        kind: "mfa",
        label: t("admin.users.mfa"),
        name: named("admin.users.mfaName"),
        variant: "ghost",
      },
      {
        kind: "delete",
        label: t("admin.users.delete"),
        name: named("admin.users.deleteName"),
        variant: "danger",
        guarded: true,
      },
    );
  }
  return actions;
}

/**
 * A row's actions (issue 28: seven stacked buttons made each row 340 px tall): a waiting
 * teacher's Approve and Reject stay in sight; the rest sit in a "Manage" menu that opens in
 * place, so a row is one line until an admin opens it.
 */
function RowActions({
  user,
  actions,
  lastAdmin,
  why,
  onAction,
}: {
  user: AdminUser;
  actions: RowAction[];
  lastAdmin: boolean;
  why: string | undefined;
  onAction: (action: Pending) => void;
}) {
  const intl = useIntl();
  const button = (a: RowAction) => (
    <Button
      key={a.kind}
      variant={a.variant}
      onClick={(event) => {
        const menu = event.currentTarget.closest("details");
        if (menu) menu.open = false;
        onAction({ kind: a.kind, user });
      }}
      aria-label={a.name}
      disabled={a.guarded ? lastAdmin : undefined}
      aria-describedby={a.guarded ? why : undefined}
    >
      {a.label}
    </Button>
  );
  const inSight = actions.filter((a) => a.kind === "approve" || a.kind === "reject");
  const inMenu = actions.filter((a) => !inSight.includes(a));
  return (
    <div className="admin-actions">
      {inSight.map(button)}
      <details className="admin-menu">
        <summary className="btn btn-secondary">
          {intl.formatMessage({ id: "admin.users.manage" })}
          <span className="visually-hidden"> {user.name}</span>
        </summary>
        <div className="admin-menu-items">
          {inMenu.map(button)}
          {why ? (
            <p className="muted admin-note" id={why}>
              {intl.formatMessage({ id: "admin.users.lastAdmin" })}
            </p>
          ) : null}
        </div>
      </details>
    </div>
  );
}

/** A short state beside a value, in its tone's colours. */
const tag = (tone: "ok" | "warn" | "danger", text: string) => (
  <span className={`tag tag-${tone}`}>{text}</span>
);

type Tone = Parameters<typeof tag>[0];

/** The yes/no columns: the tone and words of a user's state when it holds, and when not. */
const yesNo: Record<"verified" | "disabled", { yes: [Tone, string]; no: [Tone, string] }> = {
  verified: { yes: ["ok", "admin.users.verified"], no: ["warn", "admin.users.notVerified"] },
  disabled: { yes: ["danger", "admin.users.disabled"], no: ["ok", "admin.users.active"] },
};

function UserTable({
  state,
  users,
  meId,
  searching,
  onAction,
  empty,
}: {
  state: ReturnType<typeof useUserList>;
  users: AdminUser[];
  meId: string | undefined;
  searching: boolean;
  onAction: (action: Pending) => void;
  empty: ReactNode;
}) {
  const activeAdmins = state.data?.pages[0]?.activeAdminCount ?? 0;
  const { intl, t } = useT();
  const formats = useFormats();
  const column = {
    name: t("admin.users.col.name"),
    email: t("admin.users.col.email"),
    role: t("admin.users.col.role"),
    verified: t("admin.users.col.verified"),
    created: t("admin.users.col.created"),
    status: t("admin.users.col.status"),
    actions: t("admin.users.col.actions"),
  };
  const stateTag = (column: keyof typeof yesNo, holds: boolean) => {
    const [tone, id] = holds ? yesNo[column].yes : yesNo[column].no;
    return tag(tone, t(id));
  };
  return (
    <PagedTable
      state={state}
      count={users.length}
      noun="accounts"
      busy={searching}
      empty={empty}
      head={Object.values(column)}
    >
      {users.map((u) => {
        // The server refuses to demote or disable the last active admin: say so here.
        const lastAdmin = u.role === "admin" && !u.disabled && activeAdmins <= 1;
        const why = lastAdmin ? `last-admin-${u.uid}` : undefined;
        return (
          <tr key={u.uid} className={u.disabled ? "admin-row-disabled" : undefined}>
            <th scope="row" data-label={column.name}>
              {u.name}
              {u.uid === meId ? <span className="muted"> {t("admin.users.you")}</span> : null}
            </th>
            <td className="admin-email" data-label={column.email}>
              {u.email}
            </td>
            <td data-label={column.role}>
              <span className="admin-tags">
                {t(roleKeys[u.role])}
                {u.pendingRole ? tag("warn", t("admin.users.wantsTeacher")) : null}
              </span>
            </td>
            <td data-label={column.verified}>{stateTag("verified", u.emailVerified)}</td>
            <td data-label={column.created}>
              <time dateTime={u.createdAt}>{formats.day(u.createdAt)}</time>
            </td>
            <td data-label={column.status}>{stateTag("disabled", u.disabled)}</td>
            <td data-label={column.actions}>
              <RowActions
                user={u}
                actions={rowActions(u, meId, intl)}
                lastAdmin={lastAdmin}
                why={why}
                onAction={onAction}
              />
            </td>
          </tr>
        );
      })}
    </PagedTable>
  );
}

/** One admin action's confirmation. */
interface Ask {
  title: string;
  confirmLabel: string;
  variant?: ButtonVariant;
  body: ReactNode;
  /** Makes the change; says what was done, with the changed account where there is one. */
  confirm: () => Promise<[message: string, changed?: AdminUser]>;
}

function ActionDialog({
  action,
  onClose,
  onDone,
}: {
  action: Pending;
  onClose: () => void;
  onDone: (message: string, changed?: AdminUser) => Promise<void>;
}) {
  const { user } = action;
  const { updateUser, rejectTeacher, sendReset, endAllSessions, resetMfa } = useUserActions();
  const [role, setRole] = useState<Role>(user.role);
  const [reason, setReason] = useState("");
  const who = `${user.name} (${user.email})`;
  const intl = useIntl();
  const formats = useFormats();
  const say = (id: string, values: Record<string, string> = {}) =>
    intl.formatMessage({ id }, { name: user.name, who, email: user.email, ...values });
  const roleIn = (r: Role) => say(roleInSentence[r]);
  // A role change needs a sign-in or a password confirmation in the last 10 minutes.
  const reauth = useReauth();
  const changeRole = (next: Role) => reauth.run(() => updateUser(user.uid, { role: next }));
  const setDisabled = (disabled: boolean) => updateUser(user.uid, { disabled });

  // Each action: what the dialog asks, and what confirming does and then says (with the
  // account as it now is, when the change returns it). Role changes, rejections and resets of
  // two-step login ask for re-authentication first when the server wants it (reauth.run).
  const asks: Record<Pending["kind"], Ask> = {
    role: {
      title: say("admin.users.role.title"),
      confirmLabel: say("admin.users.changeRole"),
      body: (
        <>
          <p>{say("admin.users.role.body", { role: roleIn(user.role) })}</p>
          <Select
            label={say("admin.users.role.new")}
            value={role}
            onChange={(e) => setRole(e.target.value as Role)}
            options={roles.map((r) => ({ value: r, label: say(roleKeys[r]) }))}
          />
        </>
      ),
      confirm: async () => {
        const changed = await changeRole(role);
        return [say("admin.users.role.done", { role: roleIn(changed.role) }), changed];
      },
    },
    approve: {
      title: say("admin.users.approve.title"),
      confirmLabel: say("admin.users.approve"),
      body: <p>{say("admin.users.approve.body")}</p>,
      confirm: async () => [say("admin.users.approve.done"), await changeRole("teacher")],
    },
    reject: {
      title: say("admin.users.reject.title"),
      confirmLabel: say("admin.users.reject.confirm"),
      variant: "danger",
      body: <p>{say("admin.users.reject.body")}</p>,
      confirm: async () => [
        say("admin.users.reject.done"),
        await reauth.run(() => rejectTeacher(user.uid)),
      ],
    },
    disable: {
      title: say("admin.users.disable.title"),
      confirmLabel: say("admin.users.disable.confirm"),
      variant: "danger",
      body: <p>{say("admin.users.disable.body")}</p>,
      confirm: async () => [say("admin.users.disable.done"), await setDisabled(true)],
    },
    enable: {
      title: say("admin.users.enable.title"),
      confirmLabel: say("admin.users.enable.confirm"),
      body: <p>{say("admin.users.enable.body")}</p>,
      confirm: async () => [say("admin.users.enable.done"), await setDisabled(false)],
    },
    sessions: {
      title: say("admin.users.sessions.title"),
      confirmLabel: say("admin.users.sessions.confirm"),
      variant: "danger",
      body: <p>{say("admin.users.sessions.body")}</p>,
      confirm: async () => {
        await endAllSessions(user.uid);
        return [say("admin.users.sessions.done")];
      },
    },
    mfa: {
      title: say("admin.users.mfa.title"),
      confirmLabel: say("admin.users.mfa"),
      variant: "danger",
      body: <p>{say("admin.users.mfa.body", { admin: user.role === "admin" ? "yes" : "no" })}</p>,
      confirm: async () => {
        const { message } = await reauth.run(() => resetMfa(user.uid));
        return [`${user.name}: ${message}`];
      },
    },
    delete: {
      title: say("admin.users.delete.title"),
      confirmLabel: say("admin.users.delete"),
      variant: "danger",
      body: (
        <>
          <p>{say("admin.users.delete.body")}</p>
          <Field
            label={say("admin.users.delete.request")}
            hint={say("admin.users.delete.requestHint")}
            required
            maxLength={500}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
          />
        </>
      ),
      confirm: async () => {
        const { dueAt } = await reauth.run(() => requestDeletion(user.uid, reason));
        return [say("admin.users.delete.done", { day: formats.day(dueAt) })];
      },
    },
    reset: {
      title: say("admin.users.reset.title"),
      confirmLabel: say("admin.users.reset.confirm"),
      body: <p>{say("admin.users.reset.body")}</p>,
      confirm: async () => {
        await sendReset(user.uid);
        return [say("admin.users.reset.done")];
      },
    },
  };
  const ask = asks[action.kind];
  return (
    <>
      {/* Nothing until a change asks for re-authentication. */}
      {reauth.dialog}
      <ConfirmDialog
        title={ask.title}
        confirmLabel={ask.confirmLabel}
        variant={ask.variant}
        onClose={onClose}
        onConfirm={async () => {
          const [message, changed] = await ask.confirm();
          await onDone(message, changed);
        }}
      >
        {ask.body}
      </ConfirmDialog>
    </>
  );
}
