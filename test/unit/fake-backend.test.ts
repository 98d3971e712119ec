import { FakeBackend } from "../../src/platform/fake/backend.js";
import { backendContract } from "../contract/backend.contract.js";
import { fakeDesktop } from "./fake-desktop.js";

backendContract("fake", async () => ({
  backend: new FakeBackend(fakeDesktop()),
  title: "Fake Fixture",
  buttonName: "Open dialog",
  textFieldName: "Name",
}));
