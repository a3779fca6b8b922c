"""Deal files: round trip, every validation error class, hand-written layouts."""

import json

import pytest

from solver.formats import DealFileError, deal_from_json, deal_to_json, pysolfc_deal, read_deal, read_deals, \
    write_deal
from solver.variants import CATALOGUE, make_rules


@pytest.mark.parametrize("variant", [v.key for v in CATALOGUE])
def test_round_trip(tmp_path, variant):
    d = pysolfc_deal(make_rules(variant), "12345")
    p = tmp_path / "d.json"
    write_deal(d, p)
    back = read_deal(p)
    assert back.layout == d.layout and back.rules == d.rules and back.checksum == d.checksum
    assert back.source == {"kind": "pysolfc", "game_number": "12345"}


def test_huge_game_number_kept_as_text(tmp_path):
    d = pysolfc_deal(make_rules("algerian"), "123456789012345678901234567")
    obj = deal_to_json(d)
    assert obj["source"]["game_number"] == "123456789012345678901234567"
    assert deal_from_json(json.loads(json.dumps(obj))).layout == d.layout


def base_doc():
    return deal_to_json(pysolfc_deal(make_rules("alhambra"), 1))


def problems(doc):
    with pytest.raises(DealFileError) as e:
        deal_from_json(doc)
    return e.value.problems


def test_hand_written_custom_layout_accepted():
    doc = base_doc()
    lay = doc["layout"]
    # The publisher's own shuffle: swap two reserve cards and two stock cards, no checksum.
    lay["reserves"][0][0], lay["reserves"][1][0] = lay["reserves"][1][0], lay["reserves"][0][0]
    lay["stock"][0], lay["stock"][-1] = lay["stock"][-1], lay["stock"][0]
    doc["source"] = {"kind": "custom", "note": "publisher deal 17"}
    del doc["checksum"]
    d = deal_from_json(doc)
    assert d.source["kind"] == "custom" and d.layout.reserves[0][0] != pysolfc_deal(make_rules("alhambra"), 1).layout.reserves[0][0]


def test_duplicate_and_missing_card_named():
    doc = base_doc()
    doc["layout"]["reserves"][0][0] = "KH"          # was 3D
    del doc["checksum"]
    msgs = problems(doc)
    assert any(m.startswith("card 3D appears 1 times (want 2)") for m in msgs)
    assert any(m.startswith("card KH appears 3 times (want 2)") and "reserves[0]" in m for m in msgs)


def test_bad_card_text_named():
    doc = base_doc()
    doc["layout"]["stock"][3] = "1Z"
    assert any("stock: position 3 is not a card: '1Z'" in m for m in problems(doc))


def test_wrong_pile_count_and_size():
    doc = base_doc()
    doc["layout"]["reserves"].append([])
    assert any("reserves: 9 piles, alhambra has 8" in m for m in problems(doc))
    doc = base_doc()
    card = doc["layout"]["reserves"][2].pop()
    doc["layout"]["stock"].append(card)
    del doc["checksum"]
    assert any("reserves[2]: 3 cards, alhambra deals 4" in m for m in problems(doc))


def test_preplaced_foundation_cards_checked():
    doc = base_doc()
    f = doc["layout"]["foundations"]
    f[0], f[4] = f[4], f[0]
    del doc["checksum"]
    assert any(m.startswith("foundations[0]: holds KC, the rules pre-place AC") for m in problems(doc))


def test_terrace_dealt_base_must_be_first_foundation_of_its_suit():
    doc = deal_to_json(pysolfc_deal(make_rules("falling-star"), 1))
    f = doc["layout"]["foundations"]
    i = next(i for i, p in enumerate(f) if p)
    f[i], f[i + 1] = [], f[i]
    del doc["checksum"]
    assert any("belongs on" in m for m in problems(doc))


def test_checksum_mismatch():
    doc = base_doc()
    doc["checksum"] = "sha256:00"
    assert any("checksum mismatch" in m for m in problems(doc))


def test_pysolfc_source_must_match_layout():
    doc = base_doc()
    lay = doc["layout"]
    lay["stock"][0], lay["stock"][1] = lay["stock"][1], lay["stock"][0]
    del doc["checksum"]
    assert any("source says PySolFC game 1" in m for m in problems(doc))


def test_bad_header_fields():
    assert problems([1]) == ["a deal file must hold a JSON object"]
    doc = base_doc(); doc["format"] = "x"
    assert "not a deal file" in problems(doc)[0]
    doc = base_doc(); doc["version"] = 99
    assert "unsupported deal file version" in problems(doc)[0]
    doc = base_doc(); doc["rules"]["bogus"] = 1
    assert "unknown rule option 'bogus'" in problems(doc)[0]
    doc = base_doc(); del doc["rules"]["redeals"]
    assert "missing: redeals" in problems(doc)[0]
    doc = base_doc(); doc["variant"] = "nope"
    assert "unknown variant" in problems(doc)[0]
    doc = base_doc(); doc["layout"]["phase"] = "later"
    assert "phase" in problems(doc)[0]


def test_not_json_and_missing_file(tmp_path):
    p = tmp_path / "x.json"
    p.write_text("{nope")
    with pytest.raises(DealFileError, match="is not JSON"):
        read_deal(p)
    with pytest.raises(DealFileError, match="cannot read"):
        read_deal(tmp_path / "missing.json")


def test_json_lines(tmp_path):
    p = tmp_path / "many.jsonl"
    ds = [pysolfc_deal(make_rules("granada"), n) for n in (1, 2, 3)]
    p.write_text("\n".join(json.dumps(deal_to_json(d)) for d in ds) + "\n")
    assert [d.layout for d in read_deals(p)] == [d.layout for d in ds]
    p.write_text(json.dumps(deal_to_json(ds[0])) + "\n{bad\n")
    with pytest.raises(DealFileError, match="many.jsonl:2"):
        list(read_deals(p))
