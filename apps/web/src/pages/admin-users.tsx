import { type AdminUser, adminMessages } from "@gradecast/contract/admin";
import { formatDay } from "@gradecast/contract/dates";
import { type Role, roleLabels, roles } from "@gradecast/contract/roles";
import { type FormEvent, type ReactNode, useState } from "react";
import { useSession } from "../auth/session.tsx";
import { Alert } from "../components/alert.tsx";
import { Button, type ButtonVariant } from "../components/button.tsx";
import { ConfirmDialog } from "../components/confirm-dialog.tsx";
import { EmptyState } from "../components/empty-state.tsx";
import { Field } from "../components/field.tsx";
import { PageHeader } from "../components/page-header.tsx";
import { Select } from "../components/select.tsx";
import { useReauth } from "../features/account-security/reauth.tsx";
import { AdminFilters } from "../features/admin/admin-filters.tsx";
import { useUserActions, useUserList } from "../features/admin/api.ts";
import { InviteTeacher } from "../features/admin/invite-teacher.tsx";
import { PagedTable } from "../features/admin/paged-table.tsx";
import { requestDeletion } from "../features/privacy/api.ts";
import "../features/admin/admin.css";

// /admin/users (issue 8): find accounts by name or email, see role, verification and creation
// date, change a role, approve or reject a pending teacher, disable or re-enable an account, and send a
// password-reset email; end all of a user's sessions, reset their two-step login (issue 18).
// Every change asks first; its error shows in the dialog that asked.

// In a sentence, as the approval says it: "is now a teacher".
const roleInSentence: Record<Role, string> = {
  student: "a student",
  teacher: "a teacher",
  admin: "an admin",
};

function formatDate(iso: string): string {
  return formatDay(iso);
}

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
      <PageHeader
        title="Users"
        description="Every account: search, change a role, approve or reject teachers, disable or re-enable a user, send a password reset, log a user out everywhere, reset their two-step login."
      />
      <AdminFilters
        label="Search users"
        onSubmit={submit}
        submitLabel="Search"
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
          label="Search by name or email"
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
          Only teachers waiting for approval
        </label>
        <label className="admin-check">
          <input
            type="checkbox"
            checked={reviewOnly}
            onChange={(e) => setReviewOnly(e.target.checked)}
            aria-describedby="review-hint"
          />
          Only teachers who registered themselves, to review
        </label>
        <p className="field-hint" id="review-hint">
          Teachers who signed up on their own before approval was required, and whom no admin has
          approved or changed since. Keep them as teachers, or make them students.
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
            <EmptyState title="No account matches.">
              Try part of the name or of the email address.
            </EmptyState>
          ) : (
            <EmptyState title="No accounts yet." />
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
function rowActions(u: AdminUser, meId: string | undefined): RowAction[] {
  const actions: RowAction[] = [];
  if (u.pendingRole === "teacher") {
    actions.push(
      {
        kind: "approve",
        label: "Approve as teacher",
        name: `Approve as teacher: ${u.name}`,
        variant: "primary",
      },
      {
        kind: "reject",
        label: "Reject",
        name: `Reject teacher request: ${u.name}`,
        variant: "secondary",
      },
    );
  }
  actions.push({
    kind: "role",
    label: "Change role",
    name: `Change role of ${u.name}`,
    variant: "secondary",
    guarded: true,
  });
  if (u.disabled) {
    actions.push({
      kind: "enable",
      label: "Re-enable",
      name: `Re-enable ${u.name}`,
      variant: "secondary",
    });
    return actions;
  }
  actions.push(
    {
      kind: "disable",
      label: "Disable",
      name: `Disable ${u.name}`,
      variant: "danger",
      guarded: true,
    },
    {
      kind: "reset",
      label: "Send password reset",
      name: `Send password reset to ${u.name}`,
      variant: "ghost",
    },
  );
  // One's own sessions and two-step login are on Settings.
  if (u.uid !== meId) {
    actions.push(
      {
        kind: "sessions",
        label: "Log out everywhere",
        name: `Log out everywhere: ${u.name}`,
        variant: "ghost",
      },
      {
        kind: "mfa",
        label: "Reset two-step login",
        name: `Reset two-step login of ${u.name}`,
        variant: "ghost",
      },
      {
        kind: "delete",
        label: "Delete account",
        name: `Delete the account of ${u.name}`,
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
          Manage<span className="visually-hidden"> {user.name}</span>
        </summary>
        <div className="admin-menu-items">
          {inMenu.map(button)}
          {why ? (
            <p className="muted admin-note" id={why}>
              {adminMessages.lastAdmin}
            </p>
          ) : null}
        </div>
      </details>
    </div>
  );
}

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
  return (
    <PagedTable
      state={state}
      count={users.length}
      noun="accounts"
      busy={searching}
      empty={empty}
      head={["Name", "Email", "Role", "Email verified", "Created", "Status", "Actions"]}
    >
      {users.map((u) => {
        // The server refuses to demote or disable the last active admin: say so here.
        const lastAdmin = u.role === "admin" && !u.disabled && activeAdmins <= 1;
        const why = lastAdmin ? `last-admin-${u.uid}` : undefined;
        return (
          <tr key={u.uid} className={u.disabled ? "admin-row-disabled" : undefined}>
            <th scope="row" data-label="Name">
              {u.name}
              {u.uid === meId ? <span className="muted"> (you)</span> : null}
            </th>
            <td className="admin-email" data-label="Email">
              {u.email}
            </td>
            <td data-label="Role">
              <span className="admin-tags">
                {roleLabels[u.role]}
                {u.pendingRole ? <span className="tag tag-warn">Wants to be a teacher</span> : null}
              </span>
            </td>
            <td data-label="Email verified">
              {u.emailVerified ? (
                <span className="tag tag-ok">Verified</span>
              ) : (
                <span className="tag tag-warn">Not verified</span>
              )}
            </td>
            <td data-label="Created">
              <time dateTime={u.createdAt}>{formatDate(u.createdAt)}</time>
            </td>
            <td data-label="Status">
              {u.disabled ? (
                <span className="tag tag-danger">Disabled</span>
              ) : (
                <span className="tag tag-ok">Active</span>
              )}
            </td>
            <td data-label="Actions">
              <RowActions
                user={u}
                actions={rowActions(u, meId)}
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
  // A role change needs a sign-in or a password confirmation in the last 10 minutes.
  const reauth = useReauth();
  const changeRole = async (next: Role) => {
    let changed: AdminUser | undefined;
    await reauth.run(async () => {
      changed = await updateUser(user.uid, { role: next });
    });
    return changed as AdminUser;
  };

  // Each action: what the dialog asks, and what confirming does and then says (with the
  // account as it now is, when the change returns it). Role changes, rejections and resets of
  // two-step login ask for re-authentication first when the server wants it (reauth.run).
  const asks: Record<Pending["kind"], Ask> = {
    role: {
      title: `Change the role of ${user.name}`,
      confirmLabel: "Change role",
      body: (
        <>
          <p>
            {who} is {roleInSentence[user.role]}. The new role applies to their next request; pages
            they can no longer use show a "not allowed" screen.
          </p>
          <Select
            label="New role"
            value={role}
            onChange={(e) => setRole(e.target.value as Role)}
            options={roles.map((r) => ({ value: r, label: roleLabels[r] }))}
          />
        </>
      ),
      confirm: async () => {
        const changed = await changeRole(role);
        return [`${user.name} is now ${roleInSentence[changed.role]}.`, changed];
      },
    },
    approve: {
      title: `Approve ${user.name} as teacher?`,
      confirmLabel: "Approve as teacher",
      body: (
        <p>
          {who} asked for a teacher account. As a teacher they can file and read student reports.
        </p>
      ),
      confirm: async () => [`${user.name} is now a teacher.`, await changeRole("teacher")],
    },
    reject: {
      title: `Reject ${user.name}'s teacher request?`,
      confirmLabel: "Reject request",
      variant: "danger",
      body: (
        <p>
          {who} asked for a teacher account. Rejected, the account stays a student's and the request
          is no longer waiting; it is written to the audit log.
        </p>
      ),
      confirm: async () => {
        let changed: AdminUser | undefined;
        await reauth.run(async () => {
          changed = await rejectTeacher(user.uid);
        });
        return [`${user.name}'s teacher request was rejected.`, changed];
      },
    },
    disable: {
      title: `Disable ${user.name}?`,
      confirmLabel: "Disable account",
      variant: "danger",
      body: (
        <p>
          {who} will be logged out everywhere at once and cannot log in until the account is
          re-enabled. Their reports and records are kept.
        </p>
      ),
      confirm: async () => [
        `${user.name}'s account is disabled.`,
        await updateUser(user.uid, { disabled: true }),
      ],
    },
    enable: {
      title: `Re-enable ${user.name}?`,
      confirmLabel: "Re-enable account",
      body: <p>{who} will be able to log in again with their password.</p>,
      confirm: async () => [
        `${user.name}'s account is enabled again.`,
        await updateUser(user.uid, { disabled: false }),
      ],
    },
    sessions: {
      title: `Log out ${user.name} everywhere?`,
      confirmLabel: "End all sessions",
      variant: "danger",
      body: (
        <p>
          Every session of {who} ends at once, on every device: their next action there asks them to
          log in again. Their password does not change.
        </p>
      ),
      confirm: async () => {
        await endAllSessions(user.uid);
        return [`${user.name} is logged out on every device.`];
      },
    },
    mfa: {
      title: `Reset two-step login of ${user.name}?`,
      confirmLabel: "Reset two-step login",
      variant: "danger",
      body: (
        <p>
          For someone who lost their authenticator and recovery codes: {who} then signs in with
          their password alone{user.role === "admin" ? " and must set it up again first" : ""}. Make
          sure it is really them who asked.
        </p>
      ),
      confirm: async () => {
        let message = "";
        await reauth.run(async () => {
          message = (await resetMfa(user.uid)).message;
        });
        return [`${user.name}: ${message}`];
      },
    },
    delete: {
      title: `Delete the account of ${user.name}?`,
      confirmLabel: "Delete account",
      variant: "danger",
      body: (
        <>
          <p>
            Only when {who} asked for it. They are logged out everywhere; after the grace period
            their data is removed everywhere (Data protection page). Signing in before then cancels
            it.
          </p>
          <Field
            label="Their request"
            hint="How and when they asked (kept until the purge, not in the audit log)."
            required
            maxLength={500}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
          />
        </>
      ),
      confirm: async () => {
        let due = "";
        await reauth.run(async () => {
          due = (await requestDeletion(user.uid, reason)).dueAt;
        });
        return [`${user.name}'s account will be deleted on ${formatDay(due)}.`];
      },
    },
    reset: {
      title: `Send a password reset to ${user.name}?`,
      confirmLabel: "Send reset email",
      body: (
        <p>
          {user.email} will receive a link to choose a new password. The link works once, for 30
          minutes; their current password keeps working until they use it.
        </p>
      ),
      confirm: async () => {
        await sendReset(user.uid);
        return [`A password-reset email has been sent to ${user.email}.`];
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
