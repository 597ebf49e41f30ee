import type { AdminUser } from "@gradecast/contract/admin";
import { type Role, roles } from "@gradecast/contract/roles";
import { useQueryClient } from "@tanstack/react-query";
import { type FormEvent, type ReactNode, useState } from "react";
import { useSession } from "../auth/session.tsx";
import { Alert } from "../components/alert.tsx";
import { Button } from "../components/button.tsx";
import { EmptyState } from "../components/empty-state.tsx";
import { ErrorState } from "../components/error-state.tsx";
import { Field } from "../components/field.tsx";
import { PageHeader } from "../components/page-header.tsx";
import { Select } from "../components/select.tsx";
import { Spinner } from "../components/spinner.tsx";
import { sendReset, updateUser, usersKey, useUserList } from "../features/admin/api.ts";
import { ConfirmDialog } from "../features/admin/confirm-dialog.tsx";
import "../features/admin/admin.css";

// /admin/users (issue 8): find accounts by name or email, see role, verification and creation
// date, change a role, approve a pending teacher, disable or re-enable an account, and send a
// password-reset email. Every change asks first; its error shows in the dialog that asked.

const roleLabels: Record<Role, string> = { student: "Student", teacher: "Teacher", admin: "Admin" };
// In a sentence, as the approval says it: "is now a teacher".
const roleInSentence: Record<Role, string> = {
  student: "a student",
  teacher: "a teacher",
  admin: "an admin",
};

function formatDate(iso: string): string {
  return new Date(iso).toLocaleDateString(undefined, { dateStyle: "medium" });
}

type Pending =
  | { kind: "role"; user: AdminUser }
  | { kind: "approve"; user: AdminUser }
  | { kind: "disable"; user: AdminUser }
  | { kind: "enable"; user: AdminUser }
  | { kind: "reset"; user: AdminUser };

export default function AdminUsers() {
  const { user: me, refresh } = useSession();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState("");
  const [search, setSearch] = useState("");
  const [pendingOnly, setPendingOnly] = useState(false);
  const [action, setAction] = useState<Pending | null>(null);
  const [notice, setNotice] = useState("");
  const list = useUserList(search, pendingOnly);
  const users = list.data?.pages.flatMap((p) => p.items) ?? [];

  function submit(event: FormEvent) {
    event.preventDefault();
    setSearch(draft.trim());
  }

  async function done(message: string, changed?: AdminUser) {
    setAction(null);
    setNotice(message);
    await queryClient.invalidateQueries({ queryKey: usersKey });
    // An admin who changed their own account sees the result at once.
    if (changed && changed.uid === me?.uid) await refresh().catch(() => undefined);
  }

  return (
    <div className="stack">
      <PageHeader
        title="Users"
        description="Every account: search, change a role, approve teachers, disable or re-enable a user, send a password reset."
      />
      <form className="admin-filters" onSubmit={submit} aria-label="Search users">
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
        <div className="admin-filters-actions">
          <Button type="submit">Search</Button>
          {search ? (
            <Button
              variant="ghost"
              onClick={() => {
                setDraft("");
                setSearch("");
              }}
            >
              Clear
            </Button>
          ) : null}
        </div>
      </form>
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
          search || pendingOnly ? (
            <EmptyState title="No account matches.">
              Try part of the name or of the email address.
            </EmptyState>
          ) : (
            <EmptyState title="No accounts yet." />
          )
        }
      />
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
  if (state.isPending) return <Spinner label="Loading users..." />;
  if (state.isError && users.length === 0) {
    return (
      <ErrorState
        title="The users could not be loaded."
        error={state.error}
        onRetry={() => state.refetch()}
        retrying={state.isFetching}
      />
    );
  }
  if (users.length === 0) return <>{empty}</>;
  return (
    <>
      <p className="admin-status" aria-live="polite">
        {searching
          ? "Searching..."
          : `${users.length}${state.hasNextPage ? "+" : ""} ${
              users.length === 1 && !state.hasNextPage ? "account" : "accounts"
            }`}
      </p>
      <div className="admin-table-wrap">
        <table className="admin-table" aria-busy={searching || undefined}>
          <caption className="visually-hidden">Accounts, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Email</th>
              <th scope="col">Role</th>
              <th scope="col">Email verified</th>
              <th scope="col">Created</th>
              <th scope="col">Status</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {users.map((u) => (
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
                    {u.pendingRole ? (
                      <span className="tag tag-warn">Wants to be a teacher</span>
                    ) : null}
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
                  <div className="admin-actions">
                    {u.pendingRole === "teacher" ? (
                      <Button
                        onClick={() => onAction({ kind: "approve", user: u })}
                        aria-label={`Approve as teacher: ${u.name}`}
                      >
                        Approve as teacher
                      </Button>
                    ) : null}
                    <Button
                      variant="secondary"
                      onClick={() => onAction({ kind: "role", user: u })}
                      aria-label={`Change role of ${u.name}`}
                    >
                      Change role
                    </Button>
                    {u.disabled ? (
                      <Button
                        variant="secondary"
                        onClick={() => onAction({ kind: "enable", user: u })}
                        aria-label={`Re-enable ${u.name}`}
                      >
                        Re-enable
                      </Button>
                    ) : (
                      <Button
                        variant="danger"
                        onClick={() => onAction({ kind: "disable", user: u })}
                        aria-label={`Disable ${u.name}`}
                      >
                        Disable
                      </Button>
                    )}
                    {u.disabled ? null : (
                      <Button
                        variant="ghost"
                        onClick={() => onAction({ kind: "reset", user: u })}
                        aria-label={`Send password reset to ${u.name}`}
                      >
                        Send password reset
                      </Button>
                    )}
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {state.isError ? (
        <Alert tone="error">The next page could not be loaded. {state.error.message}</Alert>
      ) : null}
      {state.hasNextPage ? (
        <div className="admin-more">
          <Button
            variant="secondary"
            onClick={() => state.fetchNextPage()}
            loading={state.isFetchingNextPage}
          >
            Load more
          </Button>
        </div>
      ) : null}
    </>
  );
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
  const [role, setRole] = useState<Role>(user.role);
  const who = `${user.name} (${user.email})`;

  if (action.kind === "role") {
    return (
      <ConfirmDialog
        title={`Change the role of ${user.name}`}
        confirmLabel="Change role"
        onClose={onClose}
        onConfirm={async () => {
          const changed = await updateUser(user.uid, { role });
          await onDone(`${user.name} is now ${roleInSentence[changed.role]}.`, changed);
        }}
      >
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
      </ConfirmDialog>
    );
  }
  if (action.kind === "approve") {
    return (
      <ConfirmDialog
        title={`Approve ${user.name} as teacher?`}
        confirmLabel="Approve as teacher"
        onClose={onClose}
        onConfirm={async () => {
          const changed = await updateUser(user.uid, { role: "teacher" });
          await onDone(`${user.name} is now a teacher.`, changed);
        }}
      >
        <p>
          {who} asked for a teacher account. As a teacher they can file and read student reports.
        </p>
      </ConfirmDialog>
    );
  }
  if (action.kind === "disable") {
    return (
      <ConfirmDialog
        title={`Disable ${user.name}?`}
        confirmLabel="Disable account"
        variant="danger"
        onClose={onClose}
        onConfirm={async () => {
          const changed = await updateUser(user.uid, { disabled: true });
          await onDone(`${user.name}'s account is disabled.`, changed);
        }}
      >
        <p>
          {who} will be signed out everywhere at once and cannot sign in until the account is
          re-enabled. Their reports and records are kept.
        </p>
      </ConfirmDialog>
    );
  }
  if (action.kind === "enable") {
    return (
      <ConfirmDialog
        title={`Re-enable ${user.name}?`}
        confirmLabel="Re-enable account"
        onClose={onClose}
        onConfirm={async () => {
          const changed = await updateUser(user.uid, { disabled: false });
          await onDone(`${user.name}'s account is enabled again.`, changed);
        }}
      >
        <p>{who} will be able to sign in again with their password.</p>
      </ConfirmDialog>
    );
  }
  return (
    <ConfirmDialog
      title={`Send a password reset to ${user.name}?`}
      confirmLabel="Send reset email"
      onClose={onClose}
      onConfirm={async () => {
        await sendReset(user.uid);
        await onDone(`A password-reset email has been sent to ${user.email}.`);
      }}
    >
      <p>
        {user.email} will receive a link to choose a new password. The link works once, for 30
        minutes; their current password keeps working until they use it.
      </p>
    </ConfirmDialog>
  );
}
