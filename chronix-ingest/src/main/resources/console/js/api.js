// Requests to the server: credentials from the login form, the server's error text on failure.

const CREDENTIALS = 'chronix.credentials';

export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

let loginPending = null;

function authorization() {
  return sessionStorage.getItem(CREDENTIALS);
}

/** The login dialog, once for all requests that got a 401 at the same time. */
function login(reason) {
  if (!loginPending) {
    loginPending = new Promise((resolve) => {
      const dialog = document.getElementById('login');
      const form = document.getElementById('login-form');
      document.getElementById('login-error').textContent = reason || '';
      form.onsubmit = (event) => {
        event.preventDefault();
        const data = new FormData(form);
        const token = data.get('token');
        const value = token
          ? 'Bearer ' + token
          : 'Basic ' + btoa(unescape(encodeURIComponent(data.get('user') + ':' + data.get('password'))));
        sessionStorage.setItem(CREDENTIALS, value);
        dialog.close();
        loginPending = null;
        showUser();
        resolve();
      };
      if (!dialog.open) {
        dialog.showModal();
      }
    });
  }
  return loginPending;
}

export function showUser() {
  const value = authorization();
  let who = '';
  if (value && value.startsWith('Basic ')) {
    who = decodeURIComponent(escape(atob(value.substring(6)))).split(':')[0];
  } else if (value) {
    who = 'token';
  }
  document.getElementById('user').textContent = who ? 'signed in: ' + who : '';
}

/** What the server said went wrong: Solr's, Prometheus' and our own error bodies. */
function errorText(status, body) {
  try {
    const json = JSON.parse(body);
    if (json.error && typeof json.error === 'object') {
      return json.error.msg || JSON.stringify(json.error);
    }
    if (json.error) {
      return json.error;
    }
  } catch (notJson) {
    // plain text below
  }
  return body || 'HTTP ' + status;
}

/**
 * GET path?params (a URLSearchParams or object; array values repeat the parameter) and the
 * parsed JSON answer. Asks for credentials on 401 and tries again.
 */
export async function get(path, params) {
  const query = params instanceof URLSearchParams ? params : toParams(params || {});
  for (let attempt = 0; ; attempt++) {
    const headers = { 'X-Chronix-Console': '1', 'Accept': 'application/json' };
    if (authorization()) {
      headers['Authorization'] = authorization();
    }
    const response = await fetch(path + '?' + query.toString(), { headers });
    const body = await response.text();
    if (response.status === 401 && attempt < 5) {
      sessionStorage.removeItem(CREDENTIALS);
      await login(attempt > 0 ? errorText(401, body) : '');
      continue;
    }
    if (!response.ok) {
      throw new ApiError(response.status, errorText(response.status, body));
    }
    return JSON.parse(body);
  }
}

function toParams(object) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(object)) {
    if (Array.isArray(value)) {
      value.forEach((v) => params.append(key, v));
    } else if (value !== undefined && value !== null && value !== '') {
      params.append(key, value);
    }
  }
  return params;
}
