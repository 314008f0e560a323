"""The tiny model built here, and the language-model agent over it (greedy, sampling, LoRA)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import gymnasium
import pytest

os.environ["HF_HUB_OFFLINE"] = "1"

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

from phoneworld_gym.baselines.lm_agent import NO_OP, Completion, LMAgent, LocalModel  # noqa: E402
from phoneworld_gym.baselines.prompt import build_prompt, format_action  # noqa: E402
from phoneworld_gym.baselines.tiny import EOS, build_tiny, oracle_corpus  # noqa: E402
from phoneworld_gym.contract import Action  # noqa: E402

TASK = "ContactsStar"


@pytest.fixture(scope="module", autouse=True)
def one_thread() -> Iterator[None]:
    """Tiny models run several times faster on one thread when the cores are shared (the
    suite runs on 2 workers); the setting is restored after this module."""
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


@pytest.fixture(scope="module")
def corpus() -> list[str]:
    return list(oracle_corpus([TASK, "ClockDeleteAlarm"], seeds=range(2)))


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory, corpus: list[str]) -> Path:
    return build_tiny(tmp_path_factory.mktemp("tiny"), corpus, vocab=600)


@pytest.fixture
def env() -> Iterator[gymnasium.Env]:
    e = gymnasium.make(f"PhoneWorld/{TASK}-v0", obs_mode="a11y")
    yield e
    e.close()


def _rollout(agent: LMAgent, env: gymnasium.Env, steps: int = 2) -> list[list[int]]:
    """The completion ids of the first ``steps`` steps of a seed-0 episode."""
    obs, _ = env.reset(seed=0)
    agent.reset(obs["goal"])
    out = []
    for _ in range(steps):
        obs, *_rest, info = env.step(agent.act(obs))
        agent.observe(info)
        out.append(list(agent.last["completion_ids"]))
    return out


def test_corpus_is_oracle_prompts_with_their_actions(corpus: list[str]) -> None:
    first = corpus[0]
    prompt, completion = first.rsplit("<|assistant|>\n", 1)
    assert "Goal: Add " in prompt and "to my favorite contacts." in prompt
    assert completion == '{"action_type": "open_app", "app_name": "Contacts"}' + EOS
    assert all(t.endswith("}" + EOS) for t in corpus)


def test_tiny_builds_reloads_offline_and_is_seeded(tiny: Path, corpus: list[str],
                                                    tmp_path: Path) -> None:
    tok = transformers.AutoTokenizer.from_pretrained(tiny, local_files_only=True)
    model = transformers.AutoModelForCausalLM.from_pretrained(tiny, local_files_only=True)
    assert model.config.num_hidden_layers == 2 and model.config.hidden_size == 128
    assert len(tok) == model.config.vocab_size <= 600
    text = corpus[3]
    ids = tok(text, add_special_tokens=False).input_ids
    assert tok.decode(ids) == text  # byte-level: lossless
    assert len(ids) < len(text.encode()) / 2  # it learned PhoneWorld's words
    assert ids[-1] == tok.eos_token_id
    # any text encodes, even what the corpus never held
    odd = "中文 😀 \x00 é"
    assert tok.decode(tok(odd, add_special_tokens=False).input_ids) == odd
    same = build_tiny(tmp_path / "again", corpus, vocab=600)
    other = build_tiny(tmp_path / "other", corpus, vocab=600, seed=1)
    weights = (tiny / "model.safetensors").read_bytes()
    assert (same / "model.safetensors").read_bytes() == weights
    assert (other / "model.safetensors").read_bytes() != weights
    assert (same / "tokenizer.json").read_text() == (tiny / "tokenizer.json").read_text()


def test_build_tiny_refuses_bad_settings(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="vocab must hold"):
        build_tiny(tmp_path, ["abc"], vocab=100)
    with pytest.raises(ValueError, match="non-empty"):
        build_tiny(tmp_path, [])
    with pytest.raises(ValueError, match="hidden"):
        build_tiny(tmp_path, ["abc"], hidden=30)
    with pytest.raises(ValueError, match="init_std"):
        build_tiny(tmp_path, ["abc"], init_std=0)


def test_init_std_sets_the_spread_of_the_initial_weights(tiny: Path, corpus: list[str],
                                                         tmp_path: Path) -> None:
    wide = build_tiny(tmp_path / "wide", corpus, vocab=600, init_std=0.1)
    stds = {}
    for name, path in (("default", tiny), ("wide", wide)):
        model = transformers.AutoModelForCausalLM.from_pretrained(path, local_files_only=True)
        q = model.model.layers[0].self_attn.q_proj.weight
        stds[name] = (float(q.std()), model.config.initializer_range)
    assert abs(stds["default"][0] - 0.02) < 0.002 and stds["default"][1] == 0.02
    assert abs(stds["wide"][0] - 0.1) < 0.01 and stds["wide"][1] == 0.1


def test_untrained_reply_is_a_recorded_no_op(tiny: Path, env: gymnasium.Env) -> None:
    agent = LMAgent(tiny, max_new_tokens=8)
    obs, _ = env.reset(seed=0)
    agent.reset(obs["goal"])
    prompt = agent.policy_inputs(obs)
    assert prompt == build_prompt(obs["goal"], obs["a11y"])
    action = agent.act(obs)
    assert action == NO_OP == Action("wait")
    last = agent.last
    assert last["parsed"] is False and last["action"] == NO_OP
    assert last["prompt"] == prompt
    assert last["prompt_ids"] == agent.tokenizer(prompt, add_special_tokens=False).input_ids
    assert len(last["completion_ids"]) == 8
    assert last["completion"] == agent.tokenizer.decode(last["completion_ids"],
                                                        skip_special_tokens=True)
    assert agent.stats == {"steps": 1, "unparsable": 1, "truncated": 0}
    obs, _, term, trunc, info = env.step(action)
    assert not (term or trunc) and info["action_error"] == ""
    # the next prompt shows the reply that held no action
    assert "1. (no valid action in reply" in agent.policy_inputs(obs)


def test_reloaded_model_acts_identically(tiny: Path, env: gymnasium.Env,
                                         tmp_path: Path, corpus: list[str]) -> None:
    first = LMAgent(tiny, max_new_tokens=6)
    ids = _rollout(first, env)
    assert all(len(c) == 6 for c in ids)
    first.model.save_pretrained(tmp_path / "saved")
    first.tokenizer.save_pretrained(tmp_path / "saved")
    assert _rollout(LMAgent(tmp_path / "saved", max_new_tokens=6), env) == ids
    model = transformers.AutoModelForCausalLM.from_pretrained(tiny)
    tok = transformers.AutoTokenizer.from_pretrained(tiny)
    assert _rollout(LMAgent((model, tok), max_new_tokens=6), env) == ids
    other = build_tiny(tmp_path / "other", corpus, vocab=600, seed=1)
    assert _rollout(LMAgent(other, max_new_tokens=6), env) != ids


def test_sampling_is_seeded(tiny: Path, env: gymnasium.Env) -> None:
    lm = LocalModel.load(tiny)
    a = _rollout(LMAgent(lm, max_new_tokens=6, temperature=1.0, seed=3), env)
    b = _rollout(LMAgent(lm, max_new_tokens=6, temperature=1.0, seed=3), env)
    c = _rollout(LMAgent(lm, max_new_tokens=6, temperature=1.0, seed=4), env)
    assert a == b and a != c
    assert a[0] != a[1]  # each step draws afresh


def test_lora_wraps_and_the_adapter_reloads(tiny: Path, env: gymnasium.Env,
                                            tmp_path: Path) -> None:
    base = _rollout(LMAgent(tiny, max_new_tokens=6), env)
    agent = LMAgent(tiny, max_new_tokens=6, lora={"r": 4, "lora_alpha": 8,
                                                  "target_modules": ["q_proj", "v_proj"]})
    trainable = {n for n, p in agent.model.named_parameters() if p.requires_grad}
    assert trainable and all("lora_" in n for n in trainable)
    assert len(trainable) == 2 * 2 * 2  # A and B, q and v, two layers
    assert _rollout(agent, env) == base  # a fresh adapter starts as the identity
    gen = torch.Generator().manual_seed(0)
    with torch.no_grad():  # stands in for a training step: move the adapter's weights
        for n, p in agent.model.named_parameters():
            if "lora_B" in n:
                p.copy_(torch.randn(p.shape, generator=gen))
    moved = _rollout(agent, env)
    assert moved != base
    saved = agent.save_adapter(tmp_path / "adapter")
    assert (saved / "adapter_config.json").is_file()
    assert _rollout(LMAgent(tiny, max_new_tokens=6, lora=saved), env) == moved


class _Scripted(LocalModel):
    """A LocalModel whose replies are given (to test the agent's bookkeeping on replies
    an untrained model never writes)."""

    def __init__(self, tiny: Path, replies: list[str]):
        lm = LocalModel.load(tiny)
        super().__init__(lm.model, lm.tokenizer)
        self.replies = replies
        self.seen: list[Any] = []

    def generate(self, messages: Any, **kw: Any) -> Completion:
        self.seen.append(messages)
        text = self.replies.pop(0)
        return Completion(self.prompt_text(messages), [], text,
                          self.tokenizer(text, add_special_tokens=False).input_ids)


def test_parsed_replies_become_actions_and_errors_reach_the_history(
        tiny: Path, env: gymnasium.Env) -> None:
    tap = Action("click", index=40)
    lm = _Scripted(tiny, [f"Sure. {format_action(tap)}",
                          format_action(Action("open_app", app_name="Contacts")),
                          "no idea"])
    agent = LMAgent(lm)
    obs, _ = env.reset(seed=0)
    agent.reset(obs["goal"])
    assert agent.act(obs) == tap
    assert agent.last["parsed"] and agent.last["action"] == tap
    obs, _, _, _, info = env.step(tap)
    assert info["action_error"]
    agent.observe(info)
    agent.act(obs)
    history = lm.seen[-1][1]["content"]
    assert f'1. {format_action(tap)} -> error: {info["action_error"]}\n' in history
    assert agent.act(obs) == NO_OP
    assert agent.stats == {"steps": 3, "unparsable": 1, "truncated": 0}
    agent.reset("another goal")
    assert agent.history == [] and agent.last == {}


def test_long_prompts_are_cut_in_the_middle_and_counted(tiny: Path, env: gymnasium.Env) -> None:
    lm = LocalModel.load(tiny)
    lm.model.config.max_position_embeddings = 300
    agent = LMAgent(lm, max_new_tokens=4)
    obs, _ = env.reset(seed=0)
    agent.reset(obs["goal"])
    full = agent.tokenizer(agent.policy_inputs(obs), add_special_tokens=False).input_ids
    agent.act(obs)
    assert len(full) > 300
    assert agent.last["prompt_ids"] == full[:74] + full[-(296 - 74):]
    assert agent.stats["truncated"] == 1


def test_bad_arguments_name_the_problem(tiny: Path, tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="not a local model folder"):
        LMAgent(tmp_path / "missing")
    with pytest.raises(ValueError, match="LoraConfig does not take"):
        LMAgent(tiny, lora={"rank": 8})
    with pytest.raises(ValueError, match="not a saved LoRA adapter"):
        LMAgent(tiny, lora=tmp_path)
    with pytest.raises(ValueError, match="needs a VLM"):
        LMAgent(tiny, screenshots=True)
    with pytest.raises(ValueError, match="model_path_or_objects"):
        LMAgent(42)  # type: ignore[arg-type]
    agent = LMAgent(tiny)
    with pytest.raises(ValueError, match="a11y"):
        agent.act({"goal": "x"})
    with pytest.raises(ValueError, match="max_new_tokens"):
        agent.lm.generate("hi", max_new_tokens=0)
    with pytest.raises(ValueError, match="text only"):
        agent.lm.generate([{"role": "user", "content": [
            {"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}}]}])
    with pytest.raises(ValueError, match="no LoRA adapter"):
        agent.save_adapter(tmp_path / "a")


# -- the OpenAI-compatible path: a real server in a subprocess ------------------------------
@pytest.fixture(scope="module")
def server(tiny: Path) -> Iterator[str]:
    """``python -m phoneworld_gym.baselines.serve`` on a free port; yields its base URL."""
    import subprocess
    import sys

    env = {**os.environ, "HF_HUB_OFFLINE": "1", "OMP_NUM_THREADS": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "phoneworld_gym.baselines.serve",
                             "--model", str(tiny), "--name", "tiny", "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()  # the server prints where it serves, then serves
        assert line.startswith("serving tiny on http://"), (line, proc.stderr.read()
                                                            if proc.poll() is not None else "")
        yield line.split(" on ", 1)[1].strip()
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def _post(url: str, body: Any) -> tuple[int, dict[str, Any]]:
    import json
    import urllib.error
    import urllib.request

    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def test_openai_agent_against_the_local_server_matches_the_local_agent(
        server: str, tiny: Path, env: gymnasium.Env) -> None:
    from phoneworld_gym.baselines.openai_agent import OpenAIAgent
    from phoneworld_gym.baselines.prompt import SYSTEM

    remote = OpenAIAgent(server, "tiny", max_tokens=6)
    local = LMAgent(tiny, max_new_tokens=6)
    obs, _ = env.reset(seed=0)
    remote.reset(obs["goal"])
    local.reset(obs["goal"])
    for _ in range(2):
        action = remote.act(obs)
        assert action == local.act(obs) == NO_OP  # the untrained model writes no action
        messages = remote.last["messages"]
        assert messages[0] == {"role": "system", "content": SYSTEM}
        assert messages[1]["content"].startswith(f"Goal: {obs['goal']}\n")
        # the server read the very prompt the local agent read, and replied the same
        usage = remote.chat.last_response.usage
        assert usage.prompt_tokens == len(local.last["prompt_ids"])
        assert usage.completion_tokens == 6
        assert remote.chat.last_response.choices[0].finish_reason == "length"
        assert remote.last["completion"] == local.last["completion"] != ""
        obs, _, _, _, info = env.step(action)
        remote.observe(info)
    assert remote.stats == {"steps": 2, "unparsable": 2}
    assert '1. (no valid action in reply' in remote.messages(obs)[1]["content"]


def test_server_routes_and_refusals(server: str) -> None:
    import json
    import urllib.request

    with urllib.request.urlopen(f"{server}/models", timeout=30) as r:
        assert [m["id"] for m in json.loads(r.read())["data"]] == ["tiny"]
    url = f"{server}/chat/completions"
    user = [{"role": "user", "content": "hi"}]
    status, body = _post(url, {"model": "tiny", "messages": user, "max_tokens": 3,
                               "temperature": 0})
    assert status == 200 and body["choices"][0]["message"]["role"] == "assistant"
    assert body["usage"]["completion_tokens"] == 3
    refusals = [
        ({"model": "gpt-9", "messages": user}, 404, "does not exist"),
        ({"model": "tiny", "messages": user, "stream": True}, 400, "streaming"),
        ({"model": "tiny", "messages": []}, 400, "non-empty"),
        ({"model": "tiny", "messages": user, "temperature": "hot"}, 400, "temperature"),
        ({"model": "tiny", "messages": user, "max_tokens": 0}, 400, "max_tokens"),
        ({"model": "tiny", "messages": [{"role": "user", "content": [
            {"type": "image_url", "image_url": {"url": "data:image/png;base64,AA"}}]}]},
         400, "text only"),
        ({"model": "tiny", "messages": [{"role": "robot", "content": "x"}]}, 400, "role"),
        (b"{not json", 400, "not JSON"),
    ]
    for body_in, want_status, words in refusals:
        status, body = _post(url, body_in)
        assert status == want_status, (body_in, body)
        assert words in body["error"]["message"], (body_in, body)


# -- the VLM path: a tiny LLaVA built from configs ------------------------------------------
def test_tiny_vlm_reads_the_screenshot_and_reloads(tmp_path: Path, corpus: list[str]) -> None:
    from phoneworld_gym.baselines.tiny import IMAGE_TOKEN, build_tiny_vlm

    path = build_tiny_vlm(tmp_path / "vlm", corpus[:20], vocab=400)
    env = gymnasium.make(f"PhoneWorld/{TASK}-v0", screenshot_size=(108, 240))
    try:
        agent = LMAgent(path, max_new_tokens=4, screenshots=True)
        assert agent.lm.is_vlm
        obs, _ = env.reset(seed=0)
        agent.reset(obs["goal"])
        prompt = agent.policy_inputs(obs)
        # the chat template gives the flat prompt with the image token in the user turn
        assert prompt == build_prompt(obs["goal"], obs["a11y"]).replace(
            "<|user|>\n", f"<|user|>\n{IMAGE_TOKEN}")
        action = agent.act(obs)
        image_id = agent.tokenizer.convert_tokens_to_ids(IMAGE_TOKEN)
        assert agent.last["prompt_ids"].count(image_id) == (32 // 8) ** 2  # one per patch
        assert action == NO_OP and len(agent.last["completion_ids"]) == 4
        first = list(agent.last["completion_ids"])
        again = LMAgent(path, max_new_tokens=4, screenshots=True)
        again.reset(obs["goal"])
        again.act(obs)
        assert again.last["completion_ids"] == first
        # the pixels reach the model: another screenshot, other next-token scores
        ids = agent.lm.processor(text=[prompt], images=[obs["screenshot"]],
                                 return_tensors="pt")
        dark = agent.lm.processor(text=[prompt], images=[0 * obs["screenshot"]],
                                  return_tensors="pt")
        with torch.no_grad():
            a = agent.model(**ids).logits[0, -1]
            b = agent.model(**dark).logits[0, -1]
        assert not torch.allclose(a, b)
        with pytest.raises(ValueError, match="needs the screenshot"):
            agent.act({"a11y": obs["a11y"], "goal": obs["goal"]})
        _screenshot_over_http(agent, obs, first)
    finally:
        env.close()


def _screenshot_over_http(agent: LMAgent, obs: dict[str, Any], ids: list[int]) -> None:
    """An OpenAIAgent with screenshots, served the same VLM in process: the image travels as
    a data URL and the model reads it as the local agent did (same prompt length with its
    image tokens, same reply)."""
    import threading

    from phoneworld_gym.baselines.openai_agent import OpenAIAgent
    from phoneworld_gym.baselines.serve import make_server

    server = make_server(agent.lm, "vlm")
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        remote = OpenAIAgent(f"http://127.0.0.1:{server.server_address[1]}/v1", "vlm",
                             screenshots=True, max_tokens=4)
        remote.reset(obs["goal"])
        remote.act(obs)
        image = remote.last["messages"][1]["content"][0]
        assert image["image_url"]["url"].startswith("data:image/png;base64,")
        assert remote.chat.last_response.usage.prompt_tokens == len(agent.last["prompt_ids"])
        assert remote.last["completion"] == agent.tokenizer.decode(ids,
                                                                   skip_special_tokens=True)
    finally:
        server.shutdown()
        server.server_close()


def test_trie_decoding_untrained_model_writes_only_the_screens_actions(
        tiny: Path, env: gymnasium.Env) -> None:
    """An untrained model emits noise freely; constrained, each reply is exactly one of the
    screen's candidate actions (and so a real action, never the recorded no-op), and sampling
    under the constraint is seeded like free sampling."""
    from phoneworld_gym.baselines.prompt import candidate_actions

    agent = LMAgent(tiny, max_new_tokens=8, constrained="trie", temperature=1.0, seed=3)
    obs, _ = env.reset(seed=0)
    agent.reset(obs["goal"])
    seen = []
    for _ in range(4):
        allowed = {format_action(a) for a in candidate_actions(obs["goal"], obs["a11y"],
                                                               apps=agent.apps)}
        action = agent.act(obs)
        assert agent.last["parsed"] is True
        assert agent.last["completion"] in allowed
        assert format_action(action) == agent.last["completion"]
        assert agent.last["completion_ids"][-1] == agent.tokenizer.eos_token_id
        # each token was one the trie allowed at its place, and the last place allowed only
        # the end token (the reply was complete)
        ids, sets = agent.last["completion_ids"], agent.last["allowed_ids"]
        assert len(sets) == len(ids) and all(t in ok for t, ok in zip(ids, sets))
        assert sets[-1] == [agent.tokenizer.eos_token_id]
        assert max(len(ok) for ok in sets) > 1  # the first token chose among actions
        seen.append(agent.last["completion"])
        obs, _, term, trunc, info = env.step(action)
        agent.observe(info)
        if term or trunc:
            break
    assert agent.stats["unparsable"] == 0
    again = LMAgent(tiny, max_new_tokens=8, constrained="trie", temperature=1.0, seed=3)
    obs, _ = env.reset(seed=0)
    again.reset(obs["goal"])
    assert format_action(again.act(obs)) == seen[0]


def test_candidate_actions_cover_the_oracles_steps() -> None:
    """Every step the oracle takes on these tasks is among the candidates of its screen
    (so constrained decoding can imitate it), and candidates hold no duplicates."""
    from phoneworld_gym.baselines.lm_agent import launcher_apps
    from phoneworld_gym.baselines.prompt import candidate_actions

    apps = launcher_apps()
    assert "Contacts" in apps and "Home" not in apps and "CityBike" not in apps
    e = gymnasium.make("PhoneWorld/All-v0", obs_mode="a11y")
    try:
        for task in ("ContactsStar", "ContactsCountFavorites", "SettingsSwitch",
                     "ClockEarliestAlarm", "MessagesDeleteThread"):
            for seed in range(2):
                obs, _ = e.reset(seed=seed, options={"task": task})
                for action in e.unwrapped.oracle():
                    cands = [format_action(a) for a in
                             candidate_actions(obs["goal"], obs["a11y"], apps=apps)]
                    assert len(cands) == len(set(cands))
                    assert format_action(action) in cands, (task, seed, action)
                    obs, _, term, trunc, _ = e.step(action)
                    if term or trunc:
                        break
    finally:
        e.close()
    with pytest.raises(ValueError, match="goal must be a str"):
        candidate_actions(None, "<hierarchy/>")  # type: ignore[arg-type]


def test_named_trie_decoding_writes_the_elements_name_before_its_index(
        tiny: Path, env: gymnasium.Env) -> None:
    """``named=True``: every reply is one of the screen's candidates written as a named
    reply (the element's name, then its index), so an element reply names the element it
    acts on; named decoding without a constraint is refused."""
    import json

    from phoneworld_gym.baselines.prompt import candidate_actions, element_name, format_reply
    from phoneworld_gym.contract import parse_ui_elements

    with_element = 0
    for seed in range(8):
        agent = LMAgent(tiny, max_new_tokens=8, constrained="trie", named=True,
                        temperature=1.0, seed=seed)
        obs, _ = env.reset(seed=0)
        agent.reset(obs["goal"])
        for _ in range(4):
            els = parse_ui_elements(obs["a11y"])
            allowed = {format_reply(a, els, named=True)
                       for a in candidate_actions(obs["goal"], els, apps=agent.apps)}
            action = agent.act(obs)
            reply = agent.last["completion"]
            assert agent.last["parsed"] is True and reply in allowed
            if action.index is not None:
                with_element += 1
                assert json.loads(reply)["element"] == element_name(els[action.index])
                assert reply.index('"element"') < reply.index('"index"')
            obs, _, term, trunc, info = env.step(action)
            if term or trunc:
                break
        if with_element >= 2:
            break
    assert with_element >= 2  # most candidates act on an element; sampled, some replies do
    with pytest.raises(ValueError, match="constrained"):
        LMAgent(tiny, named=True)
