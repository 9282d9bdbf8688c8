"""Settings from the environment, key rings and the development key file."""

from __future__ import annotations

import base64
import os
import stat
from pathlib import Path

import pytest

from service import server
from service.ops.config import ConfigError, ExportPolicy, Settings
from service.sealing.keys import BadKeyConfig, KeyRing, decode_key, dev_key_ring, new_key_entry
from service.server import key_ring

KEY = bytes(range(32))


def test_defaults_need_no_environment() -> None:
    s = Settings.from_env({})
    assert (s.bind, s.grpc_port, s.http_port) == ("127.0.0.1", 50051, 8080)
    assert s.export_policy is ExportPolicy.ANY and s.access_log and s.reflection
    assert s.grpc_threads == 2 and s.long_call_threads == 2


def test_environment_overrides() -> None:
    s = Settings.from_env({
        "CANASTA_BIND": "0.0.0.0", "CANASTA_GRPC_PORT": "6000", "CANASTA_HTTP_PORT": "0",
        "CANASTA_ACCESS_LOG": "off", "CANASTA_EXPORT_POLICY": "IMPORTED",
        "CANASTA_LOG_LEVEL": "debug", "CANASTA_STATE_CACHE": "0", "CANASTA_GRPC_THREADS": "3",
        "CANASTA_LONG_CALL_THREADS": "1",
    })
    assert (s.bind, s.grpc_port, s.http_port, s.access_log) == ("0.0.0.0", 6000, 0, False)
    assert s.export_policy is ExportPolicy.IMPORTED and s.log_level == "DEBUG"
    assert s.state_cache == 0 and s.grpc_threads == 3 and s.long_call_threads == 1


@pytest.mark.parametrize(("name", "value"), [
    ("CANASTA_GRPC_PORT", "http"), ("CANASTA_HTTP_PORT", "70000"),
    ("CANASTA_ACCESS_LOG", "maybe"), ("CANASTA_EXPORT_POLICY", "sometimes"),
    ("CANASTA_LOG_LEVEL", "LOUD"), ("CANASTA_MAX_MESSAGE_BYTES", "12"),
    ("CANASTA_GRPC_THREADS", "0"), ("CANASTA_GRPC_THREADS", "auto"),
    ("CANASTA_LONG_CALL_THREADS", "0"), ("CANASTA_LONG_CALL_THREADS", "65"),
])
def test_bad_values_fail_loudly(name: str, value: str) -> None:
    with pytest.raises(ConfigError, match=name):
        Settings.from_env({name: value})


@pytest.mark.parametrize("value", ["plain", "python", "compiled", "native"])
def test_an_engine_other_than_pure_fails_loudly(value: str,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """``CANASTA_ENGINE`` has one value, ``pure`` (README, *Configuration*: a value that does
    not parse stops the process with exit code 2). The engine ignored any other without a
    word, so ``plain``, meant as pure, ran the compiled build wherever there was one."""
    with pytest.raises(ConfigError, match="CANASTA_ENGINE"):
        Settings.from_env({"CANASTA_ENGINE": value})
    for key in [k for k in os.environ if k.startswith("CANASTA_")]:
        monkeypatch.delenv(key)
    monkeypatch.setenv("CANASTA_SEAL_KEYS", new_key_entry("engine"))
    monkeypatch.setenv("CANASTA_ENGINE", value)
    assert server.main([]) == 2


@pytest.mark.parametrize("ready", ["missing/ready.json", "folder"])
def test_a_ready_file_that_cannot_be_written_stops_the_service_cleanly(
        ready: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capfd: pytest.CaptureFixture[str]) -> None:
    """``--ready-file`` in a folder that does not exist (or on a read-only root filesystem)
    ended the process with a traceback and exit code 1 while both servers listened; it is a
    configuration error like a port that cannot be had: one line naming it, exit code 2.
    Nothing is left behind: a path that is a folder took the file written beside it
    (``folder.tmp``) and kept it."""
    for key in [k for k in os.environ if k.startswith("CANASTA_")]:
        monkeypatch.delenv(key)
    monkeypatch.setenv("CANASTA_SEAL_KEYS", new_key_entry("ready"))
    for name in ("CANASTA_GRPC_PORT", "CANASTA_HTTP_PORT"):
        monkeypatch.setenv(name, "0")
    (tmp_path / "folder").mkdir()
    assert server.main(["--ready-file", str(tmp_path / ready)]) == 2
    err = capfd.readouterr().err
    assert "configuration error: --ready-file" in err and "Traceback" not in err, err
    assert [p.name for p in tmp_path.iterdir()] == ["folder"]


@pytest.mark.parametrize(("given", "named"), [
    ({"CANASTA_HTTP_PORT": "50051"}, "CANASTA_HTTP_PORT: is CANASTA_GRPC_PORT too"),
    ({"CANASTA_METRICS_PORT": "8080"}, "CANASTA_METRICS_PORT: is CANASTA_HTTP_PORT too"),
    ({"CANASTA_GRPC_PORT": "9090", "CANASTA_METRICS_PORT": "9090"},
     "CANASTA_METRICS_PORT: is CANASTA_GRPC_PORT too"),
])
def test_a_port_given_to_two_servers_names_both(given: dict[str, str], named: str) -> None:
    """Each server needs a port of its own: a port given twice failed at the bind as if
    another process held it (exit 2, "address already in use"), naming one setting."""
    with pytest.raises(ConfigError, match=named):
        Settings.from_env(given)


def test_any_free_port_may_be_asked_for_by_every_server() -> None:
    """Port 0 is any free port: every server may ask for one."""
    assert Settings.from_env({"CANASTA_GRPC_PORT": "0", "CANASTA_HTTP_PORT": "0",
                              "CANASTA_METRICS_PORT": "0"}).metrics_port == 0


@pytest.mark.parametrize("value", ["pure", "PURE", " pure ", ""])
def test_engine_pure_in_any_case_or_blank_parses(value: str) -> None:
    """As the engine reads it (engine/build.py): blank is unset, ``pure`` in any case."""
    assert Settings.from_env({"CANASTA_ENGINE": value}) == Settings(
        engine="pure" if value.strip() else None)


@pytest.mark.parametrize(("name", "value"), [
    ("CANASTA_GRPC_MAX_CONNECTION_AGE_S", "-1"), ("CANASTA_GRACE_SECONDS", "1.5"),
    ("CANASTA_CORS_ORIGINS", "*,https://a.b"), ("CANASTA_ACCESS", "open"),
])
def test_a_bad_value_is_named_with_what_was_given(name: str, value: str) -> None:
    with pytest.raises(ConfigError) as err:
        Settings.from_env({name: value})
    assert str(err.value).startswith(f"{name}: ") and repr(value) in str(err.value)


def test_blank_values_mean_the_default() -> None:
    assert Settings.from_env({"CANASTA_BIND": "  ", "CANASTA_GRPC_PORT": "",
                              "CANASTA_GRACE_SECONDS": " 3 "}) \
        == Settings(grace_seconds=3.0)


def test_only_from_env_reads_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CANASTA_GRPC_PORT", "6001")
    monkeypatch.setenv("canasta_http_port", "6002")  # the names are exact
    assert Settings().grpc_port == 50051
    s = Settings.from_env()
    assert (s.grpc_port, s.http_port) == (6001, 8080)


def test_every_setting_is_described() -> None:
    schema = Settings.model_json_schema()["properties"]
    assert len(Settings.env_names()) == len(schema)
    assert all(prop.get("description") for prop in schema.values())


def test_key_forms() -> None:
    assert decode_key("a", KEY.hex()) == KEY
    assert decode_key("a", base64.b64encode(KEY).decode()) == KEY
    assert decode_key("a", base64.urlsafe_b64encode(KEY).decode().rstrip("=")) == KEY
    ring = KeyRing.parse(f" k1:{KEY.hex()} ,\nk0:{base64.b64encode(KEY[::-1]).decode()}")
    assert ring.key_ids == ("k1", "k0") and ring.sealing.key_id == "k1"


@pytest.mark.parametrize("text", [
    "", ",", "nocolon", f"bad id!:{KEY.hex()}", "k1:short", "k1:%%%%",
    f"k1:{KEY.hex()},k1:{KEY.hex()}", f"k1:{base64.b64encode(KEY[:16]).decode()}",
])
def test_bad_key_rings(text: str) -> None:
    with pytest.raises(BadKeyConfig) as err:
        KeyRing.parse(text)
    assert KEY.hex() not in str(err.value)


@pytest.mark.parametrize("key", [KEY.hex(), base64.b64encode(KEY).decode(),
                                 base64.urlsafe_b64encode(KEY).decode().rstrip("=")])
def test_a_key_written_before_its_id_is_never_echoed(key: str) -> None:
    """``KEY:KEY_ID`` (the two swapped) put the key where the id goes, and the error named
    it: the key in the log line that reports the mistake."""
    for text in (f"{key}:k1", f"k0:{KEY[::-1].hex()},{key}:k1"):
        with pytest.raises(BadKeyConfig) as err:
            KeyRing.parse(text)
        assert key not in str(err.value) and key[:8] not in str(err.value)
        assert "KEY_ID:KEY" in str(err.value)


def test_dev_key_file_is_made_once_and_private(tmp_path: Path,
                                               caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / ".dev-keys" / "seal.keys"
    first = dev_key_ring(path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert "development" in caplog.text
    second = dev_key_ring(path)
    assert first.key_ids == second.key_ids == ("dev-1",)
    blob = first.sealing.aead.encrypt(b"\0" * 12, b"x", None)
    assert second.sealing.aead.decrypt(b"\0" * 12, blob, None) == b"x"


def test_which_keys_the_server_uses(tmp_path: Path) -> None:
    entry = new_key_entry("prod-1")
    dev = str(tmp_path / "dev.keys")
    assert key_ring(Settings(seal_keys=entry, dev_key_file=dev)).key_ids == ("prod-1",)
    assert not Path(dev).exists()  # configured keys win: no dev file is made
    assert key_ring(Settings(dev_key_file=dev)).key_ids == ("dev-1",)
    with pytest.raises(BadKeyConfig, match="CANASTA_SEAL_KEYS"):
        key_ring(Settings())


@pytest.mark.parametrize(("name", "setting"), [
    ("CANASTA_ACCES", "CANASTA_ACCESS"), ("CANASTA_SEAL_KEY", "CANASTA_SEAL_KEYS"),
    ("canasta_grpc_port", "CANASTA_GRPC_PORT"), ("CANASTA_LOGLEVEL", "CANASTA_LOG_LEVEL"),
    ("CANASTA_MAX_CONCURRENT_RPC", "CANASTA_MAX_CONCURRENT_RPCS"),
])
def test_a_misspelt_setting_is_named_with_the_setting_it_nearly_spells(
        name: str, setting: str) -> None:
    """A typo used to leave its setting at the default without a word (an operator's
    CANASTA_ACCES=trusted served in tokens mode and said nothing)."""
    assert Settings.misspelt({name: "x", "CANASTA_GRPC_PORT": "1"}) == {name: setting}


@pytest.mark.parametrize("name", [
    "CANASTA_ACCESS", "CANASTA_ENGINE", "CANASTA_WEB_DIR", "CANASTA_GRPC_TARGET",
    "CANASTA_REST_URL", "CANASTA_HOST_PORT", "CANASTA_HOST_RULES", "CANASTA_SOMETHING_ELSE",
    "PATH",
])
def test_settings_and_other_programs_names_are_not_misspelt(name: str) -> None:
    assert Settings.misspelt({name: "x"}) == {}


def test_a_removed_setting_is_named_as_removed_not_as_a_typo() -> None:
    """CANASTA_WORKERS and CANASTA_WORKER_AFFINITY went in 0.11 (docs/operations.md):
    each is named with what to do instead, and neither as a misspelling of another."""
    env = {"CANASTA_WORKERS": "4", "CANASTA_WORKER_AFFINITY": "true", "CANASTA_GRPC_PORT": "1"}
    removed = Settings.removed(env)
    assert set(removed) == {"CANASTA_WORKERS", "CANASTA_WORKER_AFFINITY"}
    assert "replicas" in removed["CANASTA_WORKERS"]
    assert Settings.misspelt(env) == {}
    assert Settings.removed({"CANASTA_GRPC_PORT": "1"}) == {}
